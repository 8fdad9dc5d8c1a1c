@testable import CamrecKit
import Foundation
import Testing

/// `--serve` and its login, resolved without the command line or a server: where the
/// login may come from, and that beyond this machine's loopback a login or
/// `--serve-insecure` is needed.
struct ServeRequestTests {
    func refusal(_ request: ServeRequest, environment: [String: String] = [:]) -> String? {
        do {
            _ = try request.resolve(environment: environment)
            return nil
        } catch {
            #expect(error.kind == .usage)
            return error.message
        }
    }

    @Test func withoutServeNothingIsServedAndItsOptionsAreRefused() throws {
        #expect(try ServeRequest().resolve(environment: [ServeRequest.authVariable: "a:b"]).settings == nil)
        #expect(refusal(ServeRequest(auth: "a:b")) == "--serve-auth needs --serve [ADDR:]PORT")
        #expect(refusal(ServeRequest(insecure: true)) == "--serve-insecure needs --serve [ADDR:]PORT")
        #expect(refusal(ServeRequest(serve: "8554", auth: "a:b", authFile: "/x"))?.contains("give one of them") == true)
    }

    @Test func addressesAndPorts() throws {
        #expect(try ServeRequest(serve: "8554").resolve(environment: [:]).settings == ServeSettings(address: "127.0.0.1", port: 8554))
        #expect(try ServeRequest(serve: "[::1]:0").resolve(environment: [:]).settings == ServeSettings(address: "::1", port: 0))
        let wide = try ServeRequest(serve: "[::]:8554", insecure: true).resolve(environment: [:]).settings
        #expect(wide == ServeSettings(address: "::", port: 8554))
        for bad in ["70000", ":8554", "host:", "[::1]8554", "a b:1", "port"] {
            #expect(refusal(ServeRequest(serve: bad))?.hasPrefix("--serve '\(bad)': give a port") == true, "\(bad)")
        }
    }

    @Test func beyondTheLoopbackALoginOrInsecureIsNeeded() throws {
        #expect(refusal(ServeRequest(serve: "0.0.0.0:8554"))?.contains("would let anyone who reaches 0.0.0.0 watch the camera") == true)
        #expect(try ServeRequest(serve: "0.0.0.0:8554", insecure: true).resolve(environment: [:]).settings?.credentials == nil)
        let (settings, warnings) = try ServeRequest(serve: "0.0.0.0:8554", auth: "viewer:long-secret").resolve(environment: [:])
        #expect(settings?.credentials == .init(user: "viewer", password: "long-secret"))
        // A password on the command line can be read by every user: a warning says so.
        #expect(warnings.count == 1 && warnings[0].contains("can be read by every user"))
        #expect(refusal(ServeRequest(serve: "8554", auth: "a:b", insecure: true))?.contains("contradict each other") == true)
    }

    @Test func theEnvironmentsLoginServesUnlessInsecureIsAsked() throws {
        let environment = [ServeRequest.authVariable: "viewer:from-env"]
        let (settings, warnings) = try ServeRequest(serve: "0.0.0.0:1").resolve(environment: environment)
        #expect(settings?.credentials == .init(user: "viewer", password: "from-env") && warnings.isEmpty)
        // --serve-insecure for this run wins over a login set for every run.
        #expect(try ServeRequest(serve: "0.0.0.0:1", insecure: true).resolve(environment: environment).settings?.credentials == nil)
    }

    @Test func aMalformedLoginIsRefusedWithoutRepeatingIt() {
        for login in ["secretwithoutcolon", ":nouser", "nopassword:"] {
            let message = refusal(ServeRequest(serve: "8554", auth: login))
            #expect(message == "--serve-auth: give USER:PASSWORD, e.g. viewer:long-secret", "\(login)")
            #expect(message?.contains(login) == false)
        }
    }

    @Test func theLoginFileMustBeTheOwnersAlone() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("login").path
        try Data("viewer:from-file\r\nsecond line\n".utf8).write(to: URL(fileURLWithPath: file))
        chmod(file, 0o644)
        #expect(refusal(ServeRequest(serve: "8554", authFile: file)) == "--serve-auth-file \(file) can be read by other users (mode 644): chmod 600 \(file)")
        chmod(file, 0o600)
        let settings = try ServeRequest(serve: "8554", authFile: file).resolve(environment: [:]).settings
        #expect(settings?.credentials == .init(user: "viewer", password: "from-file"))
        let missing = folder.appendingPathComponent("none").path
        #expect(refusal(ServeRequest(serve: "8554", authFile: missing))?.hasPrefix("--serve-auth-file \(missing): No such file") == true)
    }
}

import Foundation
import Testing

/// `camrec devices` and the choice of a camera when some cannot be opened: output on stdout
/// ends with a newline, errors go to stderr as `camrec: …`, and a camera passed over is named.
@Suite struct DevicesCommandTests {
    func environment(_ spec: String) throws -> [String: String] {
        var environment = try VirtualCameraEnvironment.shared().environment(spec: spec)
        environment["CAMREC_DEVICE_PATHS"] = nil
        return environment
    }

    @Test func listingEndsWithANewline() throws {
        let result = try CamrecBinary.run(["devices"], environment: environment("/dev/video0,card=Desk Camera"))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdoutText.hasPrefix("0: /dev/video0  Desk Camera\n"), "\(result.stdoutText)")
        #expect(result.stdoutText.hasSuffix("\n") && !result.stdoutText.hasSuffix("\n\n"), "\(result.stdoutText)")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
    }

    @Test func noCameraIsAnErrorOnStderr() throws {
        let result = try CamrecBinary.run(["devices"], environment: environment("/dev/video9,fault=enoent"))
        #expect(result.status == 66)
        // No camera part on stdout: only the sound sources.
        #expect(result.stdoutText.hasPrefix("Sound sources ("), "\(result.stdoutText)")
        #expect(result.stderr.hasPrefix("camrec: no camera found: is one connected?"), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
    }

    /// A busy camera is reported as busy, in the same words as `camrec record` uses, not as
    /// "no camera found".
    @Test(arguments: [("ebusy", Int32(75), "is busy"), ("eacces", Int32(77), "permission denied")])
    func unusableCameraIsReportedAsWhatItIs(_ fault: String, status: Int32, mentions: String) throws {
        let env = try environment("/dev/video0,fault=\(fault)")
        let listing = try CamrecBinary.run(["devices"], environment: env)
        #expect(listing.status == status, "\(listing.stderr)")
        #expect(listing.stdoutText.hasPrefix("Sound sources ("), "\(listing.stdoutText)")
        #expect(!listing.stderr.contains("is one connected"), "\(listing.stderr)")
        #expect(listing.stderr.hasPrefix("camrec: ") && listing.stderr.contains("/dev/video0") && listing.stderr.contains(mentions),
                "\(listing.stderr)")
        #expect(listing.stderr.split(separator: "\n").count == 1, "\(listing.stderr)")
        let record = try CamrecBinary.run(["--print-pipeline", "/tmp/camrec-never.mp4"], environment: env)
        #expect(record.status == status)
        #expect(record.stderr == listing.stderr, "record says \(record.stderr)")
        // JSON: the document on stdout, the same error on stderr.
        let json = try CamrecBinary.run(["devices", "--json"], environment: env)
        #expect(json.status == status)
        let document = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any])
        #expect((document["devices"] as? [Any])?.isEmpty == true)
        #expect((document["problems"] as? [[String: Any]])?.first?["path"] as? String == "/dev/video0")
        #expect(json.stderr == listing.stderr)
    }

    /// With a usable camera listed, one that cannot be opened is a warning on stderr.
    @Test func cameraThatCannotBeOpenedBesideAGoodOneIsAWarning() throws {
        let result = try CamrecBinary.run(["devices"], environment: environment("/dev/video0,fault=ebusy;/dev/video1,card=Rear"))
        #expect(result.status == 0)
        #expect(result.stdoutText.hasPrefix("0: /dev/video1  Rear\n"), "\(result.stdoutText)")
        #expect(!result.stdoutText.contains("warning"), "\(result.stdoutText)")
        #expect(result.stderr.hasPrefix("camrec: warning: camera /dev/video0 is busy"), "\(result.stderr)")
    }

    /// The first camera is busy: camrec takes the second and says which one it skipped and why.
    @Test func skippedBusyCameraIsAWarning() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let env = try environment("/dev/video0,fault=ebusy;/dev/video1,formats=yuyv")
        let result = try CamrecBinary.run(["still", "--size", "640x480", "--settle", "0", "--json", folder.path("p.jpg")], environment: env)
        #expect(result.status == 0, "\(result.stderr)")
        let warnings = JSONLines.parse(result).filter { $0["type"] as? String == "warning" }.compactMap { $0["message"] as? String }
        #expect(warnings == ["skipped /dev/video0: camera is busy (used by another program)"], "\(warnings)")
        #expect(result.stderr.contains("camrec: warning: skipped /dev/video0: camera is busy (used by another program)"), "\(result.stderr)")
        #expect(try MediaProbe.probe(folder.path("p.jpg")).width == 640)
        // Asked for by path, the busy camera is an error, not skipped.
        let byPath = try CamrecBinary.run(["still", "--device", "/dev/video0", "--settle", "0", folder.path("q.jpg")], environment: env)
        #expect(byPath.status == 75)
        // A camera after the chosen one is no reason to warn.
        let later = try CamrecBinary.run(["still", "--size", "640x480", "--settle", "0", "--json", folder.path("r.jpg")],
                                         environment: environment("/dev/video0,formats=yuyv;/dev/video1,fault=ebusy"))
        #expect(later.status == 0, "\(later.stderr)")
        #expect(!JSONLines.parse(later).contains { $0["type"] as? String == "warning" }, "\(later.stdoutText)")
    }
}

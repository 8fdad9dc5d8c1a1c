import ArgumentParsing
import CamrecKit
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// The live-stream options of `camrec` (record).
enum ServeOptions {
    static let specs = [
        OptionSpec(["--serve"], value: "[ADDR:]PORT", help: "serve the recording's own encoded stream over RTSP at rtsp://ADDR:PORT/live (several cameras in movies of their own: /camera1, /camera2, …) to any number of clients (ffplay, VLC, an NVR), never at the movie's cost; ADDR is 127.0.0.1 (this machine only) unless given, and any other address needs --serve-auth or --serve-insecure; PORT 0 picks a free port (the started line and ctl status give the URL)", summary: "serve the stream over RTSP (ffplay, VLC, NVR)"),
        OptionSpec(["--serve-auth"], value: "USER:PASSWORD", help: "with --serve: clients must log in with RTSP digest authentication (rtsp://USER:PASSWORD@ADDR:PORT/live); on the command line every user of the machine can read it (ps): prefer --serve-auth-file or the environment variable CAMREC_SERVE_AUTH=USER:PASSWORD", summary: "RTSP login (or the file, or CAMREC_SERVE_AUTH)"),
        OptionSpec(["--serve-auth-file"], value: "FILE", help: "with --serve: read USER:PASSWORD for --serve-auth from the first line of FILE, which only its owner may read (chmod 600 FILE)", summary: "read USER:PASSWORD from FILE (chmod 600)"),
        OptionSpec(["--serve-insecure"], help: "with --serve on an address other than this machine's loopback: allow anyone who reaches it to watch, without a password", summary: "serve beyond this machine without a password"),
    ]
}

/// The live stream asked for on the command line, typed once.
struct ServeChoice {
    /// Nil without `--serve`.
    var settings: ServeSettings?
    /// What to say before the run starts (a password given where others can read it).
    var warnings: [String] = []

    /// The environment variable that may hold USER:PASSWORD instead of the command line.
    static let authVariable = "CAMREC_SERVE_AUTH"

    init(_ parsed: ParsedArguments, environment: [String: String] = ProcessInfo.processInfo.environment) throws(UsageError) {
        let given = [parsed.value("--serve-auth") != nil ? "--serve-auth" : nil,
                     parsed.value("--serve-auth-file") != nil ? "--serve-auth-file" : nil].compactMap { $0 }
        if given.count > 1 { throw UsageError("--serve-auth and --serve-auth-file both give the login: give one of them") }
        let insecure = parsed.flag("--serve-insecure")
        guard let text = parsed.value("--serve") else {
            // The environment's login is for runs that serve; without --serve it is unused.
            if let option = given.first ?? (insecure ? "--serve-insecure" : nil) {
                throw UsageError("\(option) needs --serve [ADDR:]PORT")
            }
            return
        }
        var authText: (text: String, from: String)?
        if let text = parsed.value("--serve-auth") {
            authText = (text, "--serve-auth")
            warnings.append("--serve-auth on the command line can be read by every user of this machine (ps, /proc): use --serve-auth-file FILE (chmod 600) or \(Self.authVariable)=USER:PASSWORD instead")
        } else if let file = parsed.value("--serve-auth-file") {
            authText = (try Self.readAuthFile(file), "--serve-auth-file \(file)")
        } else if !insecure, let text = environment[Self.authVariable], !text.isEmpty {
            // --serve-insecure given for this run wins over a login set for every run.
            authText = (text, Self.authVariable)
        }
        let auth = try authText.map { login throws(UsageError) -> ServeSettings.Credentials in
            let text = login.text
            guard let colon = text.firstIndex(of: ":"), colon != text.startIndex, text.index(after: colon) != text.endIndex else {
                // The text itself is a secret: never repeated in the message.
                throw UsageError("\(login.from): give USER:PASSWORD, e.g. viewer:long-secret")
            }
            return .init(user: String(text[..<colon]), password: String(text[text.index(after: colon)...]))
        }
        if auth != nil, insecure {
            throw UsageError("--serve-auth and --serve-insecure contradict each other: give one of them")
        }
        var settings = try Self.parse(text)
        settings.credentials = auth
        if !ServeSettings.isLoopback(settings.address), auth == nil, !insecure {
            throw UsageError("--serve \(text) would let anyone who reaches \(settings.address) watch the camera: give --serve-auth USER:PASSWORD (RTSP digest authentication), or --serve-insecure to allow it without a password")
        }
        self.settings = settings
    }

    /// The first line of `path`, refused when the file can be read by anyone but its owner.
    static func readAuthFile(_ path: String) throws(UsageError) -> String {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw UsageError("--serve-auth-file \(path): \(String(cString: strerror(errno))); write USER:PASSWORD in it and chmod 600 it")
        }
        guard info.st_mode & 0o077 == 0 else {
            throw UsageError("--serve-auth-file \(path) can be read by other users (mode \(String(info.st_mode & 0o777, radix: 8))): chmod 600 \(path)")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw UsageError("--serve-auth-file \(path) cannot be read")
        }
        let line = String(decoding: data, as: UTF8.self).split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return String(line.hasSuffix("\r") ? line.dropLast() : line)
    }

    /// `PORT`, `ADDR:PORT` or `[IPV6]:PORT`.
    static func parse(_ text: String) throws(UsageError) -> ServeSettings {
        var address = ServeSettings.defaultAddress
        var portText = Substring(text)
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            address = String(text[text.index(after: text.startIndex)..<close])
            portText = text[text.index(after: close)...]
            guard portText.hasPrefix(":") else { throw invalid(text) }
            portText = portText.dropFirst()
        } else if let colon = text.lastIndex(of: ":") {
            address = String(text[..<colon])
            portText = text[text.index(after: colon)...]
        }
        guard !address.isEmpty, !address.contains(" "), let port = Int(portText), (0...65535).contains(port) else { throw invalid(text) }
        return ServeSettings(address: address, port: port)
    }

    private static func invalid(_ text: String) -> UsageError {
        UsageError("--serve '\(text)': give a port (8554), or an address and a port (0.0.0.0:8554, [::]:8554); port 0 picks a free one")
    }
}

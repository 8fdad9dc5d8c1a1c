import ArgumentParsing
import CamrecKit

/// The live-stream options of `camrec` (record).
enum ServeOptions {
    static let specs = [
        OptionSpec(["--serve"], value: "[ADDR:]PORT", help: "serve the recording's own encoded stream over RTSP at rtsp://ADDR:PORT/live to any number of clients (ffplay, VLC, an NVR), never at the movie's cost; ADDR is 127.0.0.1 (this machine only) unless given, and any other address needs --serve-auth or --serve-insecure; PORT 0 picks a free port (the started line and ctl status give the URL)"),
        OptionSpec(["--serve-auth"], value: "USER:PASSWORD", help: "with --serve: clients must log in with RTSP digest authentication (rtsp://USER:PASSWORD@ADDR:PORT/live)"),
        OptionSpec(["--serve-insecure"], help: "with --serve on an address other than this machine's loopback: allow anyone who reaches it to watch, without a password"),
    ]
}

/// The live stream asked for on the command line, typed once.
struct ServeChoice {
    /// Nil without `--serve`.
    var settings: ServeSettings?

    init(_ parsed: ParsedArguments) throws(UsageError) {
        let auth = try parsed.value("--serve-auth").map { (text: String) throws(UsageError) -> ServeSettings.Credentials in
            guard let colon = text.firstIndex(of: ":"), colon != text.startIndex, text.index(after: colon) != text.endIndex else {
                throw UsageError("--serve-auth '\(text)': give USER:PASSWORD, e.g. --serve-auth viewer:long-secret")
            }
            return .init(user: String(text[..<colon]), password: String(text[text.index(after: colon)...]))
        }
        let insecure = parsed.flag("--serve-insecure")
        guard let text = parsed.value("--serve") else {
            if auth != nil || insecure {
                throw UsageError("\(auth != nil ? "--serve-auth" : "--serve-insecure") needs --serve [ADDR:]PORT")
            }
            return
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

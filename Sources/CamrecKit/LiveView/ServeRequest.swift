import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// What `--serve`, `--serve-auth`, `--serve-auth-file` and `--serve-insecure` ask for, as
/// given, and the rules that turn it into `ServeSettings`: where the login may come from
/// (the command line, a file only its owner reads, or `CAMREC_SERVE_AUTH`), and that
/// serving beyond this machine's loopback needs a login or `--serve-insecure`.
public struct ServeRequest: Sendable, Equatable {
    /// `--serve [ADDR:]PORT`; nil without.
    public var serve: String?
    /// `--serve-auth USER:PASSWORD`.
    public var auth: String?
    /// `--serve-auth-file FILE`.
    public var authFile: String?
    /// `--serve-insecure`.
    public var insecure = false

    /// The environment variable that may hold USER:PASSWORD instead of the command line.
    public static let authVariable = "CAMREC_SERVE_AUTH"

    public init(serve: String? = nil, auth: String? = nil, authFile: String? = nil, insecure: Bool = false) {
        self.serve = serve
        self.auth = auth
        self.authFile = authFile
        self.insecure = insecure
    }

    /// The settings (nil without `--serve`) and what to say before the run starts (a
    /// password given where others can read it); `environment` may hold the login. Every
    /// refusal is a usage error naming the option to change; a password is never repeated.
    public func resolve(environment: [String: String]) throws(CamrecError) -> (settings: ServeSettings?, warnings: [String]) {
        let given = [auth != nil ? "--serve-auth" : nil, authFile != nil ? "--serve-auth-file" : nil].compactMap { $0 }
        if given.count > 1 { throw Self.usage("--serve-auth and --serve-auth-file both give the login: give one of them") }
        guard let serve else {
            // The environment's login is for runs that serve; without --serve it is unused.
            if let option = given.first ?? (insecure ? "--serve-insecure" : nil) {
                throw Self.usage("\(option) needs --serve [ADDR:]PORT")
            }
            return (nil, [])
        }
        var warnings: [String] = []
        var login: (text: String, from: String)?
        if let auth {
            login = (auth, "--serve-auth")
            warnings.append("--serve-auth on the command line can be read by every user of this machine (ps, /proc): use --serve-auth-file FILE (chmod 600) or \(Self.authVariable)=USER:PASSWORD instead")
        } else if let authFile {
            login = (try Self.readAuthFile(authFile), "--serve-auth-file \(authFile)")
        } else if !insecure, let text = environment[Self.authVariable], !text.isEmpty {
            // --serve-insecure given for this run wins over a login set for every run.
            login = (text, Self.authVariable)
        }
        let credentials = try login.map { login throws(CamrecError) -> ServeSettings.Credentials in
            let text = login.text
            guard let colon = text.firstIndex(of: ":"), colon != text.startIndex, text.index(after: colon) != text.endIndex else {
                // The text itself is a secret: never repeated in the message.
                throw Self.usage("\(login.from): give USER:PASSWORD, e.g. viewer:long-secret")
            }
            return .init(user: String(text[..<colon]), password: String(text[text.index(after: colon)...]))
        }
        if credentials != nil, insecure {
            throw Self.usage("--serve-auth and --serve-insecure contradict each other: give one of them")
        }
        var settings = try Self.parse(serve)
        settings.credentials = credentials
        if !ServeSettings.isLoopback(settings.address), credentials == nil, !insecure {
            throw Self.usage("--serve \(serve) would let anyone who reaches \(settings.address) watch the camera: give --serve-auth USER:PASSWORD (RTSP digest authentication), or --serve-insecure to allow it without a password")
        }
        return (settings, warnings)
    }

    /// The first line of `path`, refused when the file can be read by anyone but its owner.
    static func readAuthFile(_ path: String) throws(CamrecError) -> String {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw usage("--serve-auth-file \(path): \(String(cString: strerror(errno))); write USER:PASSWORD in it and chmod 600 it")
        }
        guard info.st_mode & 0o077 == 0 else {
            throw usage("--serve-auth-file \(path) can be read by other users (mode \(String(info.st_mode & 0o777, radix: 8))): chmod 600 \(path)")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw usage("--serve-auth-file \(path) cannot be read")
        }
        // Split as bytes: as Characters, "\r\n" is one, and a line ending CRLF would not end.
        var line = Array(data).split(separator: UInt8(ascii: "\n"), maxSplits: 1, omittingEmptySubsequences: false).first ?? []
        if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
        return String(decoding: line, as: UTF8.self)
    }

    /// `PORT`, `ADDR:PORT` or `[IPV6]:PORT`.
    static func parse(_ text: String) throws(CamrecError) -> ServeSettings {
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

    private static func invalid(_ text: String) -> CamrecError {
        usage("--serve '\(text)': give a port (8554), or an address and a port (0.0.0.0:8554, [::]:8554); port 0 picks a free one")
    }

    private static func usage(_ message: String) -> CamrecError { CamrecError(.usage, message) }
}

/// What `--serve [ADDR:]PORT` asks for: an RTSP server streaming the recording's own
/// encoded stream (`LiveStreamServer`).
public struct ServeSettings: Sendable, Equatable {
    /// A user name and password for RTSP digest authentication (`--serve-auth USER:PASSWORD`).
    public struct Credentials: Sendable, Equatable {
        /// The user name.
        public var user: String
        /// The password.
        public var password: String

        /// Credentials from `--serve-auth`'s value.
        public init(user: String, password: String) {
            self.user = user
            self.password = password
        }
    }

    /// The address listened on (127.0.0.1 unless given).
    public var address: String
    /// The TCP port; 0 lets the system choose a free one (the `started` line gives it).
    public var port: Int
    /// Digest authentication; nil lets anyone who reaches the address watch.
    public var credentials: Credentials?

    /// The mount every client asks for: `rtsp://ADDR:PORT/live`.
    public static let path = "/live"
    /// The address used when `--serve` names only a port.
    public static let defaultAddress = "127.0.0.1"

    /// A server on `address`:`port`, with `credentials` when given.
    public init(address: String = ServeSettings.defaultAddress, port: Int, credentials: Credentials? = nil) {
        self.address = address
        self.port = port
        self.credentials = credentials
    }

    /// Whether `address` is this machine only (127.0.0.0/8, ::1, localhost): no one else
    /// can connect, so no password is needed.
    public static func isLoopback(_ address: String) -> Bool {
        address == "localhost" || address == "::1" || address.hasPrefix("127.")
    }

    /// `rtsp://ADDR:PORT/live` for the port actually listened on (IPv6 in brackets).
    public func url(port bound: Int) -> String {
        let host = address.contains(":") ? "[" + address + "]" : address
        return "rtsp://\(host):\(bound)\(Self.path)"
    }
}

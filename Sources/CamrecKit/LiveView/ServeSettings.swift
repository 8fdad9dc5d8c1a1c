#if canImport(Glibc)
import Glibc
#endif

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
    /// Several cameras in movies of their own: camera `index`'s mount (1 for the first
    /// `--device`), `/camera1`, `/camera2`, … on the one server.
    public static func cameraPath(_ index: Int) -> String { "/camera\(index)" }
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

    /// `rtsp://ADDR:PORT/live` for the port actually listened on (IPv6 in brackets): for a
    /// wildcard address (0.0.0.0, ::), which no client can connect to, the first of `urls`.
    public func url(port bound: Int) -> String {
        urls(port: bound).first ?? "rtsp://\(Self.defaultAddress):\(bound)\(Self.path)"
    }

    /// The URLs clients can use for the mount at `path`: one for an address given, and for
    /// a wildcard address one per address of this machine's interfaces that are up
    /// (loopback last), never `rtsp://0.0.0.0:…`.
    public func urls(port bound: Int, path: String = ServeSettings.path, interfaces: [String]? = nil) -> [String] {
        func url(_ host: String) -> String {
            "rtsp://\(host.contains(":") ? "[" + host + "]" : host):\(bound)\(path)"
        }
        let wildcard: Bool? = switch address {
        case "0.0.0.0": false
        case "::", "[::]": true
        default: nil
        }
        guard let ipv6 = wildcard else { return [url(address)] }
        let found = (interfaces ?? Self.interfaceAddresses()).filter { ipv6 || !$0.contains(":") }
        let ordered = found.filter { !Self.isLoopback($0) } + found.filter(Self.isLoopback)
        return ordered.isEmpty ? [url(ipv6 ? "::1" : Self.defaultAddress)] : ordered.map(url)
    }

    /// The IPv4 and IPv6 addresses of the interfaces that are up (no link-local IPv6, which
    /// needs a zone to be usable).
    static func interfaceAddresses() -> [String] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return [] }
        defer { freeifaddrs(list) }
        var addresses: [String] = []
        for entry in sequence(first: first, next: { $0.pointee.ifa_next }) {
            guard entry.pointee.ifa_flags & UInt32(IFF_UP) != 0, let socketAddress = entry.pointee.ifa_addr else { continue }
            var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
            switch Int32(socketAddress.pointee.sa_family) {
            case AF_INET:
                socketAddress.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { ipv4 in
                    var raw = ipv4.pointee.sin_addr
                    _ = inet_ntop(AF_INET, &raw, &text, socklen_t(text.count))
                }
            case AF_INET6:
                let linkLocal = socketAddress.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { ipv6 -> Bool in
                    var raw = ipv6.pointee.sin6_addr
                    _ = inet_ntop(AF_INET6, &raw, &text, socklen_t(text.count))
                    return ipv6.pointee.sin6_scope_id != 0
                }
                if linkLocal { continue }
            default:
                continue
            }
            let address = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if !address.isEmpty, !addresses.contains(address) { addresses.append(address) }
        }
        return addresses
    }
}

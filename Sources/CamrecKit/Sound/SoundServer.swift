#if canImport(Glibc)
import Glibc
#endif

/// Finding a PulseAudio (or PipeWire-pulse) server without libpulse: the sockets a client
/// would try, and whether one accepts a connection. Asking only when a socket answers also
/// keeps GStreamer's pulse device provider from autospawning a server.
public enum SoundServer {
    /// Where a PulseAudio client looks for its server: `$PULSE_SERVER` (its unix: entries),
    /// else the user's runtime folder, then the system-wide socket.
    public static func sockets(environment: [String: String]) -> [String] {
        if let server = environment["PULSE_SERVER"], !server.isEmpty {
            return server.split(separator: " ").compactMap { entry in
                let entry = entry.hasPrefix("{") ? String(entry.drop { $0 != "}" }.dropFirst()) : String(entry)
                if entry.hasPrefix("unix:") { return String(entry.dropFirst(5)) }
                return entry.hasPrefix("/") ? entry : nil
            }
        }
        let runtime = environment["XDG_RUNTIME_DIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/run/user/\(getuid())"
        return [runtime + "/pulse/native", "/run/pulse/native", "/var/run/pulse/native"]
    }

    /// The first of `sockets` that answers, nil when none does.
    public static func find(environment: [String: String] = processEnvironment()) -> String? {
        sockets(environment: environment).first(where: answers)
    }

    /// Whether something accepts a connection on the Unix socket at `path`.
    public static func answers(_ path: String) -> Bool {
        guard path.utf8.count < 108 else { return false }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            let bytes = Array(path.utf8)
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0
            }
        }
    }

    /// The variables a PulseAudio client reads to find its server.
    public static func processEnvironment() -> [String: String] {
        var values: [String: String] = [:]
        for name in ["PULSE_SERVER", "XDG_RUNTIME_DIR"] {
            if let value = getenv(name) { values[name] = String(cString: value) }
        }
        return values
    }
}

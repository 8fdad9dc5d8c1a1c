#if canImport(Glibc)
import Glibc
#endif

/// Talks to a recording's control socket (`camrec ctl PATH COMMAND`).
public enum ControlClient {
    /// Sends `command` and returns the recorder's one-line JSON reply.
    /// A connection the recorder has not taken yet waits in its queue (and in the socket's
    /// backlog): `timeoutSeconds` bounds the connect and the wait for the reply.
    public static func send(_ command: String, to path: String, timeoutSeconds: Int = 10) throws(CamrecError) -> String {
        let fd = try connect(path, timeoutSeconds: timeoutSeconds)
        defer { close(fd) }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let bytes = Array((command + "\n").utf8)
        _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var reply: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(fd, &buffer, buffer.count)
            if count <= 0 { break }
            reply += buffer[0..<count]
        }
        guard !reply.isEmpty else {
            throw CamrecError(.unavailable, "the recorder at \(path) did not answer within \(timeoutSeconds) s")
        }
        return String(decoding: reply, as: UTF8.self).trimmingCharacters(in: "\n")
    }

    /// Whether a recorder answers at `path`.
    static func isListening(_ path: String) -> Bool {
        guard let fd = try? connect(path) else { return false }
        close(fd)
        return true
    }

    static func connect(_ path: String, timeoutSeconds: Int = 10) throws(CamrecError) -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw CamrecError(.failure, "cannot create a socket: \(systemMessage(errno))") }
        // A full backlog makes connect wait: bounded as the reply is.
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = ControlServer.address(path)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard result == 0 else {
            let code = errno
            close(fd)
            if code == ENOENT || code == ECONNREFUSED || code == ENOTSOCK {
                throw CamrecError(.unavailable, "no recorder is listening on \(path): is camrec running with --control \(path)?")
            }
            throw CamrecError(.unavailable, "cannot reach the recorder at \(path): \(systemMessage(code))")
        }
        return fd
    }
}

extension String {
    fileprivate func trimmingCharacters(in character: Character) -> String {
        var text = self
        while text.last == character { text.removeLast() }
        return text
    }
}

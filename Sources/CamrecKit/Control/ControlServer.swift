import FoundationEssentials
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The control socket of a recording (`--control PATH`): a Unix stream socket, mode 0600,
/// that takes one command line per connection (`still`, `stop`, `status`) and answers one
/// JSON line. A malformed or oversized command gets an error reply and changes nothing.
///
/// Connections are served by up to `maximumClients` threads at once, so a `still` that
/// waits for its file never holds up a `status` or a `stop`; more connections wait their
/// turn in a queue (bounded by memory and descriptors, not by a count a burst of scripts
/// reaches), so that every client is answered: a still asked for is a still taken.
public final class ControlServer: Sendable {
    /// What the server does for each command; runs on the connection's own thread.
    public typealias Handler = @Sendable (ControlCommand) -> String

    /// Connections served at the same time.
    public static let maximumClients = 8

    private let path: String
    private let listener: Int32
    private let wakeRead: Int32
    /// The wake pipe's write end: written by `shutdown` and closed by the serving thread
    /// when it ends, both under this lock, so that it is never written after it is closed.
    private let wakeWrite: Mutex<Int32?>
    /// Accepted connections not yet taken by a serving thread, and how many such threads
    /// run (`shutdown` waits for them to end: a reply is never cut off by the exit).
    private let waiting = Monitor<(clients: [Int32], servers: Int)>(([], 0))

    /// How long `shutdown` waits for the replies being written (a `stop` is answered at
    /// once; a `still` waits for its file, which a stopping run has finished by then).
    static let replyGrace: Duration = .seconds(2)

    /// Creates the socket at `path`. An existing file there is replaced only when it is a
    /// socket nobody listens on (left by a camrec that crashed); otherwise it is refused.
    /// What the server does for `set NAME=VALUE…`: gets the text after `set`.
    public typealias SetHandler = @Sendable (String) -> String

    private let setHandler: SetHandler?

    /// What the server does for `clip [--after T]`: gets the text after `clip` (nil when none).
    public typealias ClipHandler = @Sendable (String?) -> String

    private let clipHandler: ClipHandler?

    /// Creates the socket at `path`. An existing file there is replaced only when it is a
    /// socket nobody listens on (left by a camrec that crashed); otherwise it is refused.
    /// `set` commands go to `setHandler` (refused when nil), the others to `handler`.
    /// `clip` commands go to `clipHandler` (refused when nil).
    public init(path: String, setHandler: SetHandler? = nil, clipHandler: ClipHandler? = nil,
                handler: @escaping Handler) throws(CamrecError) {
        self.path = path
        self.setHandler = setHandler
        self.clipHandler = clipHandler
        guard path.utf8.count < 100 else {
            throw CamrecError(.usage, "--control path is too long for a Unix socket (max 99 bytes): use a shorter one such as /tmp/camrec.sock")
        }
        try Self.removeStaleSocket(at: path)
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw CamrecError(.failure, "cannot create the control socket: \(systemMessage(errno))") }
        var address = Self.address(path)
        // Only the owner may connect: the mode is set through the umask, before bind creates the file.
        let oldMask = umask(0o177)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        umask(oldMask)
        guard bound == 0, listen(fd, SOMAXCONN) == 0 else {
            let message = systemMessage(errno)
            Glibc.close(fd)
            throw CamrecError(.cannotCreateOutput, "cannot create the control socket \(path): \(message)")
        }
        listener = fd
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else {
            Glibc.close(fd)
            unlink(path)
            throw CamrecError(.failure, "cannot create the control socket's wake pipe: \(systemMessage(errno))")
        }
        wakeRead = pipeEnds[0]
        wakeWrite = Mutex(pipeEnds[1])
        NamedThread.start("camrec-control") { [self] in serve(handler) }
    }

    /// Removes the socket file (at once, so it is gone when the process exits) and stops
    /// accepting connections; ones already accepted are answered: it waits (at most
    /// `replyGrace`) until their replies are written, so that the `stop` that ended the
    /// run gets its reply before the process exits.
    public func shutdown() {
        unlink(path)
        wakeWrite.withLock { descriptor in
            guard let descriptor else { return }
            var byte: UInt8 = 1
            _ = write(descriptor, &byte, 1)
        }
        waiting.wait(until: { $0.servers == 0 }, deadline: ContinuousClock.now + Self.replyGrace) { _, _ in }
    }

    private func serve(_ handler: @escaping Handler) {
        defer {
            Glibc.close(listener)
            Glibc.close(wakeRead)
            wakeWrite.withLock { descriptor in
                if let descriptor { Glibc.close(descriptor) }
                descriptor = nil
            }
        }
        while true {
            var fds = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            guard poll(&fds, 2, -1) >= 0 || errno == EINTR else { return }
            if fds[1].revents != 0 { return }
            guard fds[0].revents & Int16(POLLIN) != 0 else { continue }
            let client = accept(listener, nil, nil)
            guard client >= 0 else { continue }
            _ = fcntl(client, F_SETFD, FD_CLOEXEC)
            let startServer = waiting.withLock { waiting -> Bool in
                waiting.clients.append(client)
                guard waiting.servers < Self.maximumClients else { return false }
                waiting.servers += 1
                return true
            }
            if startServer {
                NamedThread.start("camrec-control-client") { [self] in serveWaiting(handler) }
            }
        }
    }

    /// Answers waiting connections, oldest first, until none is left.
    private func serveWaiting(_ handler: Handler) {
        while let client = waiting.withLockWaking({ waiting -> Int32? in
            guard !waiting.clients.isEmpty else {
                waiting.servers -= 1
                return nil
            }
            return waiting.clients.removeFirst()
        }) {
            answer(client, handler)
            Glibc.close(client)
        }
    }

    /// Reads one line (at most `maximumLength` + 1 bytes, 2 s at most) and answers it.
    private func answer(_ client: Int32, _ handler: Handler) {
        var timeout = timeval(tv_sec: 2, tv_usec: 0)
        setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(client, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 128)
        while received.count <= ControlCommand.maximumLength, !received.contains(UInt8(ascii: "\n")) {
            let count = read(client, &buffer, buffer.count)
            if count <= 0 { break }
            received += buffer[0..<count]
        }
        if let newline = received.firstIndex(of: UInt8(ascii: "\n")) { received = Array(received[..<newline]) }
        let reply: String
        switch ControlCommand.parseLine(received) {
        case .success((.set, let argument)):
            if let setter = setHandler {
                reply = setter(argument ?? "")
            } else {
                reply = ControlReply.error("this recorder cannot set camera controls (no camera)")
            }
        case .success((.clip, let argument)):
            reply = clipHandler?(argument)
                ?? ControlReply.error("this recording makes no clips: start camrec with --pre-roll T or --post-roll T")
        case .success((let command, _)): reply = handler(command)
        case .failure(let error): reply = ControlReply.error(error.message)
        }
        self.reply(reply, to: client)
    }

    private func reply(_ text: String, to client: Int32) {
        let bytes = Array((text + "\n").utf8)
        _ = bytes.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    static func address(_ path: String) -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            let bytes = Array(path.utf8.prefix(raw.count - 1))
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return address
    }

    /// Refuses anything at `path` but a socket nobody answers on, which it removes.
    private static func removeStaleSocket(at path: String) throws(CamrecError) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        guard (info.st_mode & S_IFMT) == S_IFSOCK else {
            throw CamrecError(.cannotCreateOutput, "\(path) exists and is not a socket: choose another --control path")
        }
        if ControlClient.isListening(path) {
            throw CamrecError(.cannotCreateOutput, "\(path) is in use by a running recorder: choose another --control path")
        }
        unlink(path)
    }
}

/// The JSON replies of the control socket.
public enum ControlReply {
    /// `{"ok":false,"error":"…"}`.
    public static func error(_ message: String) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(Failure(error: message)) else { return "{\"ok\":false}" }
        return String(decoding: data, as: UTF8.self)
    }

    private struct Failure: Encodable {
        let ok = false
        let error: String
    }

    /// `{"ok":true, …}` with `value`'s fields.
    public static func success<Value: Encodable>(_ value: Value) -> String {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value), data.count > 2,
              let body = String(data: data.dropFirst(), encoding: .utf8) else { return ok }
        return "{\"ok\":true," + body
    }

    /// `{"ok":true}`.
    public static var ok: String { "{\"ok\":true}" }
}

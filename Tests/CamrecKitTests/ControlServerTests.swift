@testable import CamrecKit
import Foundation
import Synchronization
import Testing

/// The control socket without a recording: a handler of our own stands in for it.
@Suite struct ControlServerTests {
    static func socketPath() -> String {
        "/tmp/camrec-ctl-\(getpid())-\(UUID().uuidString.prefix(8)).sock"
    }

    /// A `still` that waits for its file does not hold up `status` or `stop`.
    @Test func statusIsAnsweredWhileAStillWaits() throws {
        let path = Self.socketPath()
        let release = DispatchSemaphore(value: 0)
        let server = try ControlServer(path: path) { command in
            switch command {
            case .still:
                release.wait()
                return ControlReply.ok
            case .status, .stop, .split, .set, .clip, .text:
                return ControlReply.error("answered \(command.rawValue)")
            }
        }
        defer { server.shutdown() }
        let stillReply = Mutex<String?>(nil)
        let stillDone = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let reply = try? ControlClient.send("still", to: path, timeoutSeconds: 60)
            stillReply.withLock { $0 = reply }
            stillDone.signal()
        }
        // The still is held until status and stop are answered.
        let status = try ControlClient.send("status", to: path, timeoutSeconds: 60)
        #expect(status.contains("answered status"))
        let stop = try ControlClient.send("stop", to: path, timeoutSeconds: 60)
        #expect(stop.contains("answered stop"))
        #expect(stillReply.withLock { $0 } == nil, "the still was answered before it was released")
        release.signal()
        #expect(stillDone.wait(timeout: .now() + 60) == .success)
        #expect(stillReply.withLock { $0 }?.contains("\"ok\":true") == true)
    }

    /// The `stop` that ends a run is answered before the process exits: `shutdown` (the
    /// run's end) waits for the reply being written. (CI saw `ctl stop` fail without a
    /// reply when the recording ended and the process exited first.)
    @Test func shutdownWaitsForTheReplyBeingWritten() throws {
        let path = Self.socketPath()
        let handling = DispatchSemaphore(value: 0)
        let server = try ControlServer(path: path) { _ in
            handling.signal()
            // The run stops at once; the thread that answers is slow to write (a loaded machine).
            Thread.sleep(forTimeInterval: 0.3)
            return ControlReply.ok
        }
        let client = try ControlClient.connect(path)
        defer { close(client) }
        let line = Array("stop\n".utf8)
        #expect(write(client, line, line.count) == line.count)
        #expect(handling.wait(timeout: .now() + 30) == .success)
        server.shutdown()
        // A Unix socket's write lands in the peer's buffer at once: the reply is there now.
        var ready = pollfd(fd: client, events: Int16(POLLIN), revents: 0)
        #expect(poll(&ready, 1, 0) == 1, "shutdown returned before the reply was written")
        var bytes = [UInt8](repeating: 0, count: 256)
        let count = read(client, &bytes, bytes.count)
        #expect(count > 0 && String(decoding: bytes.prefix(max(count, 0)), as: UTF8.self).contains("\"ok\":true"))
    }

    /// Issue 29 item 12: a burst of clients larger than the serving threads (20 stills at
    /// once, each held until all have connected) is queued, not turned away: every client
    /// gets its own answer, and the handler runs once per client.
    @Test func item12_aBurstOfClientsIsQueuedAndEveryOneAnswered() throws {
        let path = Self.socketPath()
        let clients = 20
        let release = DispatchSemaphore(value: 0)
        let handled = Mutex(0)
        let server = try ControlServer(path: path) { command in
            release.wait()
            let count = handled.withLock { count -> Int in
                count += 1
                return count
            }
            return ControlReply.success(["n": count])
        }
        defer { server.shutdown() }
        let replies = Mutex<[String]>([])
        let done = DispatchSemaphore(value: 0)
        for _ in 0..<clients {
            Thread.detachNewThread {
                let reply = (try? ControlClient.send("still", to: path, timeoutSeconds: 60)) ?? "failed"
                replies.withLock { $0.append(reply) }
                done.signal()
            }
        }
        // No reply before the handler is let go: nobody was turned away as "busy".
        #expect(done.wait(timeout: .now() + 0.5) == .timedOut, "\(replies.withLock { $0 })")
        for _ in 0..<clients { release.signal() }
        for _ in 0..<clients { #expect(done.wait(timeout: .now() + 60) == .success) }
        let all = replies.withLock { $0 }
        #expect(all.count == clients)
        #expect(all.allSatisfy { $0.hasPrefix("{\"ok\":true") }, "\(all)")
        #expect(Set(all).count == clients, "each client its own answer: \(all)")
        #expect(handled.withLock { $0 } == clients)
    }

    @Test func malformedCommandGetsAnErrorReply() throws {
        let path = Self.socketPath()
        let server = try ControlServer(path: path) { _ in ControlReply.ok }
        defer { server.shutdown() }
        let reply = try ControlClient.send("explode", to: path)
        #expect(reply.contains("\"ok\":false") && reply.contains("unknown command"), "\(reply)")
        // An oversized line (from a client other than camrec ctl, which refuses it first).
        let huge = try ControlClient.send(String(repeating: "x", count: 5000), to: path)
        #expect(huge.contains("\"ok\":false") && huge.contains("too long"), "\(huge)")
    }

    /// shutdown removes the socket at once and can be called more than once; nobody
    /// answers afterwards.
    @Test func shutdownRemovesTheSocket() throws {
        let path = Self.socketPath()
        let server = try ControlServer(path: path) { _ in ControlReply.ok }
        #expect(FileManager.default.fileExists(atPath: path))
        server.shutdown()
        server.shutdown()
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(throws: CamrecError.self) { try ControlClient.send("status", to: path, timeoutSeconds: 5) }
    }

    /// Anything at the path that is not a stale socket is refused, and left alone.
    @Test func refusesAnExistingFile() throws {
        let path = Self.socketPath()
        FileManager.default.createFile(atPath: path, contents: Data("keep".utf8))
        defer { unlink(path) }
        #expect(throws: CamrecError.self) { try ControlServer(path: path) { _ in ControlReply.ok } }
        #expect(FileManager.default.contents(atPath: path) == Data("keep".utf8))
    }
}

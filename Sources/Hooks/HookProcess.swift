import CamrecCore
import CProcess
#if canImport(Glibc)
import Glibc
#endif

/// One run of a hook's command: started in a process group of its own with `input` on its
/// standard input, its standard output on camrec's standard error (camrec's standard output
/// is its JSON lines), its standard error read for the tail the `hook` line reports; ended by
/// itself or, after `timeout`, by SIGTERM to its group and, 2 s later, SIGKILL.
struct HookProcess {
    /// How a command ended.
    struct Outcome: Sendable, Equatable {
        /// Its exit status; nil when a signal ended it, or it never started.
        var exitStatus: Int32?
        /// The signal that ended it; nil when it exited.
        var signal: Int32?
        /// It ran past its time limit and was stopped.
        var timedOut = false
        /// It could not be started (the reason); nil when it started.
        var failure: String?
        /// The last lines of its standard error (at most `tailBytes`).
        var stderrTail = ""
        /// Seconds from start to end.
        var seconds: Double = 0
        /// Its process (and process group) id; nil when it never started.
        var pid: Int32?

        /// Whether it did what was asked (exited 0 in time).
        var succeeded: Bool { exitStatus == 0 && !timedOut }
    }

    /// How much of the end of standard error is kept.
    static let tailBytes = 2048
    /// How long a command stopped with SIGTERM has before SIGKILL.
    static let termGrace: Duration = .seconds(2)

    let arguments: [String]
    let environment: [String]
    let input: [UInt8]
    let timeout: Duration

    /// Runs the command to its end (or its time limit) on the calling thread; `started` is
    /// told its process id (its group's) as soon as it runs.
    func run(started: (Int32) -> Void = { _ in }) -> Outcome {
        let start = ContinuousClock.now
        var outcome = runProcess(started: started)
        outcome.seconds = (ContinuousClock.now - start) / .seconds(1)
        return outcome
    }

    private func runProcess(started: (Int32) -> Void) -> Outcome {
        var inPipe: [Int32] = [-1, -1]
        var errPipe: [Int32] = [-1, -1]
        guard camrec_pipe(&inPipe) == 0 else { return Outcome(failure: "no pipe: " + systemMessage(errno)) }
        guard camrec_pipe(&errPipe) == 0 else {
            close(inPipe[0]); close(inPipe[1])
            return Outcome(failure: "no pipe: " + systemMessage(errno))
        }
        var pid: pid_t = 0
        let spawned = withCStrings(arguments) { argv in
            withCStrings(environment) { envp in
                camrec_spawn(argv, envp, inPipe[0], STDERR_FILENO, errPipe[1], &pid)
            }
        }
        close(inPipe[0])
        close(errPipe[1])
        guard spawned == 0 else {
            close(inPipe[1]); close(errPipe[0])
            return Outcome(failure: "cannot start \(arguments[0]): " + systemMessage(spawned))
        }
        started(pid)
        feed(inPipe[1])
        var outcome = Outcome(pid: pid)
        var tail: [UInt8] = []
        let ended = watch(pid: pid, stderr: errPipe[0], tail: &tail)
        close(errPipe[0])
        outcome.timedOut = !ended
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        if status & 0x7f == 0 {
            outcome.exitStatus = (status >> 8) & 0xff
        } else {
            outcome.signal = status & 0x7f
        }
        outcome.stderrTail = Self.lastLines(tail)
        return outcome
    }

    /// Writes `input` (a JSON line: far less than a pipe holds) without ever waiting for a
    /// command that does not read it, and closes the pipe. A command that has already exited
    /// makes the write fail with EPIPE: camrec ignores SIGPIPE (`StandardStream.ignoreBrokenPipe`).
    private func feed(_ descriptor: Int32) {
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        input.withUnsafeBytes { buffer in
            var done = 0
            while done < buffer.count, let base = buffer.baseAddress {
                let written = write(descriptor, base + done, buffer.count - done)
                if written > 0 { done += written } else if errno != EINTR { break }
            }
        }
        close(descriptor)
    }

    /// Reads standard error into `tail` until the process ends; past `timeout`, stops its
    /// group (SIGTERM, then SIGKILL). True when it ended by itself.
    private func watch(pid: pid_t, stderr: Int32, tail: inout [UInt8]) -> Bool {
        let pidfd = camrec_pidfd(pid)
        defer { if pidfd >= 0 { close(pidfd) } }
        _ = fcntl(stderr, F_SETFL, fcntl(stderr, F_GETFL) | O_NONBLOCK)
        var stderrOpen = true
        var deadline = ContinuousClock.now + timeout
        var terminated = false
        while true {
            let left = deadline - ContinuousClock.now
            if left <= .zero {
                if terminated {
                    killpg(pid, SIGKILL)
                    return false
                }
                killpg(pid, SIGTERM)
                terminated = true
                deadline = ContinuousClock.now + Self.termGrace
                continue
            }
            // Without a pidfd (a kernel before 5.3), the end of standard error stands for the
            // command's end.
            guard pidfd >= 0 || stderrOpen else { return !terminated }
            var watched = [pollfd(fd: pidfd, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: stderrOpen ? stderr : -1, events: Int16(POLLIN), revents: 0)]
            let milliseconds = Int32(min(left / .milliseconds(1), 60_000).rounded(.up))
            let ready = poll(&watched, 2, max(1, milliseconds))
            if ready < 0, errno != EINTR { return !terminated }
            if stderrOpen, watched[1].revents != 0 { stderrOpen = readSome(stderr, into: &tail) }
            if pidfd >= 0, watched[0].revents != 0 {
                // Ended: what it wrote before is in the pipe.
                while stderrOpen, readSome(stderr, into: &tail, once: true) {}
                return !terminated
            }
        }
    }

    /// Reads what is there into `tail` (keeping its last `tailBytes`); false at the end of
    /// the stream (or an error), true while more may come.
    private func readSome(_ descriptor: Int32, into tail: inout [UInt8], once: Bool = false) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count > 0 {
            tail.append(contentsOf: buffer[..<count])
            if tail.count > Self.tailBytes { tail.removeFirst(tail.count - Self.tailBytes) }
            return true
        }
        if count < 0, errno == EINTR { return true }
        if count < 0, errno == EAGAIN { return !once }
        return false
    }

    /// The whole lines at the end of `bytes` (a cut first line dropped), as text, trimmed.
    static func lastLines(_ bytes: [UInt8]) -> String {
        var kept = bytes[...]
        if bytes.count >= tailBytes, let newline = kept.firstIndex(of: UInt8(ascii: "\n")) {
            kept = kept[(newline + 1)...]
        }
        let text = String(decoding: kept, as: UTF8.self)
        var end = text.endIndex
        while end > text.startIndex, text[text.index(before: end)].isWhitespace { end = text.index(before: end) }
        return String(text[..<end])
    }

    /// `body` given `strings` as a NULL-terminated array of C strings.
    private func withCStrings<Result>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> Result) -> Result {
        var pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) }
        pointers.append(nil)
        defer { for pointer in pointers { free(pointer) } }
        return body(pointers)
    }
}

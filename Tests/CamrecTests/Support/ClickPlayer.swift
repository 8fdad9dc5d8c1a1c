import Foundation

/// Clicks into a sink of a `TestSoundServer` that reach the sink's `.monitor` source at
/// multiples of a period of CLOCK_MONOTONIC: the instants at which the emulated camera's
/// `flash=PERIOD` flashes. Runs Tests/Fixtures/ClickPlayer/clickplayer.c (compiled once per
/// test process with `cc`), which plays through `pacat` and listens to the monitor through
/// `parec`, correcting where it puts each click from where the last one was heard (see the
/// C file). `init` returns once a click was heard within 1 ms of its instant.
///
/// `ClickPlayer.listen` runs clicklistener.c: a GStreamer `pulsesrc` on the monotonic clock,
/// i.e. the onsets as a GStreamer recorder stamps them.
final class ClickPlayer: @unchecked Sendable {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// One click, as the player heard it on the monitor.
    struct Click: Sendable {
        /// The multiple of the period it was meant for (monotonic seconds).
        var target: Double
        /// When it reached the monitor (monotonic seconds).
        var heard: Double
        var error: Double { heard - target }
    }

    let period: Double
    private let process: Process
    private let logURL: URL

    /// Starts clicking into `sink` every `periodMilliseconds` and waits (up to `timeout`)
    /// until the clicks land on their instants.
    init(server: TestSoundServer, sink: String = "vsink", periodMilliseconds: Int = 2000,
         seconds: Double = 300, timeout: TimeInterval = 30) throws {
        period = Double(periodMilliseconds) / 1000
        let executable = try Self.built.get().player
        logURL = server.folder.appendingPathComponent("clickplayer-\(UUID().uuidString).log")
        FileManager.default.createFile(atPath: logURL.path, contents: nil)
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ChildProcess.cleanSignals + [executable, "--sink", sink, "--period-ms", "\(periodMilliseconds)",
                                                         "--seconds", "\(seconds)"]
        process.environment = server.environment()
        process.standardInput = FileHandle.nullDevice
        let log = try FileHandle(forWritingTo: logURL)
        process.standardOutput = log
        process.standardError = log
        try process.run()
        let process = process
        let locked = Wait.until(timeout: timeout) { !process.isRunning || self.log.contains("locked\n") }
        guard locked, process.isRunning else {
            let text = self.log
            stop()
            throw Failure(description: "the click player did not lock on: \(text.suffix(800))")
        }
    }

    /// What the player printed so far.
    var log: String { (try? String(contentsOf: logURL, encoding: .utf8)) ?? "" }

    /// Every click at a multiple, as the player heard it on the monitor.
    var clicks: [Click] {
        log.split(separator: "\n").compactMap { line in
            let words = line.split(separator: " ")
            guard words.count >= 6, words[0] == "click", words[2] == "heard",
                  let target = Double(words[1]), let heard = Double(words[3]) else { return nil }
            return Click(target: target, heard: heard)
        }
    }

    func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }

    deinit { stop() }

    /// The onsets (monotonic seconds) that a GStreamer `pulsesrc` on `source` stamps while
    /// listening for `seconds`.
    static func listen(server: TestSoundServer, source: String = "vsink.monitor", seconds: Double) throws -> [Double] {
        let listener = try built.get().listener
        let result = try ChildProcess.run(listener, ["--source", source, "--seconds", "\(seconds)"],
                                          environment: server.environment(), timeout: seconds + 30)
        guard result.status == 0, result.stdoutText.contains("done") else {
            throw Failure(description: "clicklistener failed (\(result.status)): \(result.stderr.suffix(600))")
        }
        return result.stdoutText.split(separator: "\n").compactMap { line in
            line.hasPrefix("onset ") ? Double(line.dropFirst(6)) : nil
        }
    }

    /// Where the sound of one monotonic instant falls relative to the nearest multiple of `period`.
    static func phase(_ time: Double, period: Double) -> Double {
        time - (time / period).rounded() * period
    }

    private static let built: Result<(player: String, listener: String), Failure> = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("camrec-clickplayer-\(getpid())")
        let sources = VirtualCameraEnvironment.packageRoot.appendingPathComponent("Tests/Fixtures/ClickPlayer")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let player = folder.appendingPathComponent("clickplayer").path
            let listener = folder.appendingPathComponent("clicklistener").path
            let one = try ChildProcess.run("cc", ["-std=gnu11", "-O2", "-Wall", sources.appendingPathComponent("clickplayer.c").path,
                                                  "-o", player, "-lm"], timeout: 120)
            guard one.status == 0 else { return .failure(Failure(description: "cannot build clickplayer.c: \(one.stderr)")) }
            let flags = try ChildProcess.run("pkg-config", ["--cflags", "--libs", "gstreamer-app-1.0"])
            let two = try ChildProcess.run("cc", ["-std=gnu11", "-O2", "-Wall", sources.appendingPathComponent("clicklistener.c").path,
                                                  "-o", listener]
                                               + flags.stdoutText.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init),
                                           timeout: 120)
            guard two.status == 0 else { return .failure(Failure(description: "cannot build clicklistener.c: \(two.stderr)")) }
            return .success((player, listener))
        } catch {
            return .failure(Failure(description: "cannot build the click player: \(error)"))
        }
    }()
}

/// Recordings with clicks: one at a time in this process (the click player is timing
/// sensitive, and two at once would load the machine for each other), and judged only when
/// the click player kept its own clicks on time. On a loaded machine its clicks can come
/// late (pacat ran dry), and then the recording says nothing about the recorder: that
/// attempt is made again, once. A second late attempt fails the test.
enum ClickedRecording {
    /// Held while a click player runs.
    static let lock = NSLock()

    /// How far a click may be from its instant for a recording to count.
    static let clickTolerance = 0.002

    /// Starts a test sound server and a click player every `period` ms, runs `body` with
    /// the server, and returns what it made once an attempt's clicks were all on time.
    static func run<Result>(period: Int = 2000, attempts: Int = 2,
                            _ body: (TestSoundServer) throws -> Result) throws -> Result {
        lock.lock()
        defer { lock.unlock() }
        var late: [ClickPlayer.Click] = []
        for _ in 0..<max(attempts, 1) {
            let server = try TestSoundServer()
            defer { server.stop() }
            let player = try ClickPlayer(server: server, periodMilliseconds: period)
            defer { player.stop() }
            let result = try body(server)
            let clicks = player.clicks
            late = clicks.filter { abs($0.error) >= clickTolerance }
            if !clicks.isEmpty, late.isEmpty { return result }
        }
        throw ClickPlayer.Failure(description: "the click player's clicks came late on \(attempts) attempts (the machine is too loaded to measure sync): \(late)")
    }
}

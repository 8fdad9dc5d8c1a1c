import Foundation
import Testing

/// The click player's accuracy, checked by recorders other than the player itself:
/// - a `parec` of the test's own on the sink's monitor, read as it arrives: sample i of its
///   stream reached the test at i / rate + E, E the lower envelope of (read time − samples
///   read / rate) over all reads (the null sink consumes samples on CLOCK_MONOTONIC, so E
///   settles). This is when a click is there for any client of the monitor;
/// - GStreamer's `pulsesrc` (clicklistener.c, pipeline on the monotonic clock with base time
///   0): what a GStreamer recorder stamps, its latency estimate included.
@Suite("Click player: clicks at the monitor on multiples of the period", .serialized)
struct ClickPlayerTests {
    /// Reads a monitor source with parec and times every sample by its arrival.
    final class MonitorReference: @unchecked Sendable {
        private let process = Process()
        private let lock = NSLock()
        private var data = Data()
        private var envelope = Double.infinity
        private var reader: Thread?
        let rate = 48000

        init(server: TestSoundServer, source: String = "vsink.monitor") throws {
            let pipe = Pipe()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ChildProcess.cleanSignals + ["parec", "--device=\(source)", "--raw", "--format=s16le",
                                                             "--rate=\(rate)", "--channels=1", "--latency-msec=2"]
            process.environment = server.environment()
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = pipe
            process.standardError = FileHandle.nullDevice
            try process.run()
            let handle = pipe.fileHandleForReading
            let thread = Thread { [self] in
                var buffer = [UInt8](repeating: 0, count: 65536)
                while true {
                    let n = read(handle.fileDescriptor, &buffer, buffer.count)
                    let now = Self.monotonic()
                    if n <= 0 { break }
                    lock.lock()
                    data.append(contentsOf: buffer[0..<n])
                    envelope = min(envelope, now - Double(data.count / 2) / Double(rate))
                    lock.unlock()
                }
            }
            reader = thread
            thread.start()
        }

        static func monotonic() -> Double {
            var t = timespec()
            clock_gettime(CLOCK_MONOTONIC, &t)
            return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
        }

        var seconds: Double {
            lock.lock()
            defer { lock.unlock() }
            return Double(data.count / 2) / Double(rate)
        }

        /// Onsets (monotonic seconds): the first sample above 0.3 of full scale after 100 ms of quiet.
        func onsets() -> [Double] {
            lock.lock()
            let bytes = data, e = envelope
            lock.unlock()
            var result: [Double] = [], quiet = rate / 10
            bytes.withUnsafeBytes { raw in
                let samples = raw.bindMemory(to: Int16.self)
                for (i, v) in samples.enumerated() {
                    if abs(Int(v)) > 32767 * 3 / 10 {
                        if quiet >= rate / 10 { result.append(Double(i) / Double(rate) + e) }
                        quiet = 0
                    } else if quiet < rate / 10 {
                        quiet += 1
                    }
                }
            }
            return result
        }

        func stop() {
            if process.isRunning {
                process.terminate()
                process.waitUntilExit()
            }
        }

        deinit { stop() }
    }

    @Test("every 500 ms for 4 s: the clicks reach the monitor within 2 ms of the multiples (a parec of the test's own); GStreamer's pulsesrc stamps them a constant few ms later")
    func accuracy() throws {
        let server = try TestSoundServer()
        defer { server.stop() }
        ClickedRecording.lock.lock()
        defer { ClickedRecording.lock.unlock() }
        let player = try ClickPlayer(server: server, periodMilliseconds: 500)
        defer { player.stop() }
        let reference = try MonitorReference(server: server)
        defer { reference.stop() }
        // the GStreamer reference listens meanwhile, for 4 s (it returns when done)
        let gstreamer = try ClickPlayer.listen(server: server, seconds: 4)
        #expect(Wait.until(timeout: 20) { reference.seconds >= 4 })
        let heard = reference.onsets()
        // the first onsets may come before the reference has settled its envelope: skip 1
        let phases = heard.dropFirst().map { ClickPlayer.phase($0, period: 0.5) * 1000 }
        let gstPhases = gstreamer.map { ClickPlayer.phase($0, period: 0.5) * 1000 }
        let own = player.clicks.map { $0.error * 1000 }
        print("click player: parec reference \(phases.map { String(format: "%.2f", $0) }) ms; "
              + "pulsesrc \(gstPhases.map { String(format: "%.2f", $0) }) ms; player's own \(own.map { String(format: "%.2f", $0) }) ms")
        #expect(phases.count >= 5, "\(heard)")
        for phase in phases { #expect(abs(phase) < 2.0, "a click \(phase) ms from its instant (parec reference)") }
        #expect(own.count >= 5)
        for error in own { #expect(abs(error) < 2.0, "a click \(error) ms from its instant (the player's own check)") }
        // pulsesrc: late by its latency estimate's error, the same for every click
        #expect(gstPhases.count >= 5, "\(gstreamer)")
        let steady = Array(gstPhases.dropFirst())
        if let low = steady.min(), let high = steady.max() {
            #expect(high - low < 2, "pulsesrc stamps \(steady) ms")
            #expect(low > -5 && high < 30, "pulsesrc stamps \(steady) ms")
        }
    }
}

import Foundation
import Synchronization

/// A sound card whose crystal is off: it feeds a PulseAudio `module-pipe-source` through a
/// FIFO with `rate × (1 + ppm/10⁶)` mono 16-bit frames per second of the system clock, so
/// counted at the nominal `rate` its sound runs `ppm` fast (or slow, negative). Every
/// `rate × (1 + ppm/10⁶)` frames, one true second apart, it clicks (1 ms, full scale):
/// recorded on the system clock the clicks are one second apart; stamped by sample count,
/// `1 + ppm/10⁶` seconds apart.
final class DriftingSoundCard: @unchecked Sendable {
    let fifo: String
    let rate: Int
    let ppm: Double
    private let running = Running()
    private let finished = DispatchSemaphore(value: 0)

    /// The server module to load (before the card starts), named `source`.
    static func module(source: String, fifo: String, rate: Int = 48_000) -> String {
        "module-pipe-source source_name=\(source) file=\(fifo) format=s16le rate=\(rate) channels=1"
    }

    /// Starts writing into `fifo` (made by the server's module); what nobody reads is lost,
    /// as with a card.
    init(fifo: String, rate: Int = 48_000, ppm: Double) throws {
        self.fifo = fifo
        self.rate = rate
        self.ppm = ppm
        let descriptor = open(fifo, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw MediaProbe.Failure(description: "cannot open \(fifo) for writing: errno \(errno)")
        }
        // A small pipe: little sound waits in it while nobody records.
        _ = fcntl(descriptor, Self.setPipeSize, 16_384)
        let thread = Thread { [running, finished, rate, ppm] in
            Self.write(descriptor, rate: rate, ppm: ppm, running: running)
            close(descriptor)
            finished.signal()
        }
        thread.start()
    }

    /// Linux's F_SETPIPE_SZ, which Glibc's module does not export.
    private static let setPipeSize: Int32 = 1031

    /// Whether the writer goes on.
    private final class Running: Sendable {
        private let flag = Mutex(true)
        var isOn: Bool { flag.withLock { $0 } }
        /// Turns it off; true the first time.
        func stop() -> Bool { flag.withLock { on in defer { on = false }; return on } }
    }

    private static func write(_ descriptor: Int32, rate: Int, ppm: Double, running: Running) {
        let perSecond = Double(rate) * (1 + ppm / 1_000_000)
        let click = rate / 1000
        let start = ContinuousClock.now
        var written = 0
        var samples: [Int16] = []
        while running.isOn {
            Thread.sleep(forTimeInterval: 0.004)
            let elapsed = start.duration(to: .now)
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            let due = Int(seconds * perSecond)
            guard due > written else { continue }
            samples.removeAll(keepingCapacity: true)
            for frame in written..<due {
                // Click n starts at frame round(n × perSecond), n ≥ 1.
                let second = Int(Double(frame) / perSecond)
                let clickStart = Int((Double(second) * perSecond).rounded())
                samples.append(second >= 1 && (0..<click).contains(frame - clickStart) ? 30_000 : 0)
            }
            written = due
            // A full pipe (nobody reading): the sound is lost, as a card's would be.
            _ = samples.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
        }
    }

    /// Stops writing.
    func stop() {
        guard running.stop() else { return }
        finished.wait()
    }

    deinit { stop() }
}

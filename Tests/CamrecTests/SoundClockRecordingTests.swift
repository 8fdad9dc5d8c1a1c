import Foundation
import Testing

/// A sound card whose clock is off (`DriftingSoundCard`: its clicks are one true second
/// apart, and as many samples as a card `ppm` fast makes in that second): camrec keeps its
/// sound on the system clock, so in the movie the clicks are one second apart, not
/// `1 + ppm/10⁶`, and the result says how far off the card was.
@Suite("Sound clock: a drifting sound card stays with the picture")
struct SoundClockRecordingTests {
    /// The least-squares slope of `values` against their index.
    static func slope(_ values: [Double]) -> Double {
        let count = Double(values.count)
        let meanIndex = (count - 1) / 2
        let mean = values.reduce(0, +) / count
        var numerator = 0.0, denominator = 0.0
        for (index, value) in values.enumerated() {
            numerator += (Double(index) - meanIndex) * (value - mean)
            denominator += (Double(index) - meanIndex) * (Double(index) - meanIndex)
        }
        return numerator / denominator
    }

    @Test("a card 800 ppm fast or slow: its clicks one second apart in a 30-s movie (uncorrected, 0.8 ms more or less each)",
          arguments: [800.0, -800.0])
    func drift(ppm: Double) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let fifo = folder.path("card.fifo")
        let server = try TestSoundServer(modules: [DriftingSoundCard.module(source: "drifty", fifo: fifo)])
        defer { server.stop() }
        let card = try DriftingSoundCard(fifo: fifo, ppm: ppm)
        defer { card.stop() }
        let movie = folder.path("drift.mkv")
        let run = try CamrecBinary.run(["--device", "test", "--size", "320x240", "--max-duration", "30s",
                                        "--audio", "drifty", "--json", movie],
                                       environment: server.environment(), timeout: 120)
        try #require(run.status == 0, "\(run.stderr)")
        let clicks = try AVSync.clickTimes(movie, quiet: 0.5)
        try #require(clicks.count >= 25, "clicks at \(clicks)")
        let interval = Self.slope(clicks)
        // 0.8 ms a second uncorrected; the correction settles within a few seconds.
        #expect(abs(interval - 1) < 0.0002, "clicks \(interval) s apart: \(clicks)")
        let result = try #require(JSONLines.parse(run).first { $0["type"] as? String == "result" })
        let reported = try #require(result["audio_clock_ppm"] as? Double, "\(result)")
        #expect(abs(reported - ppm) < 200, "the result says \(reported) ppm, the card ran \(ppm)")
        #expect(result["dropped_audio_ms"] as? Int == 0, "\(result)")
    }
}

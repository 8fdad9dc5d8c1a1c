@testable import CamrecKit
import Testing

/// Issue 37 item 4: H.265 on two cores. `--quality auto`'s choice of effort from timed
/// trials (`EffortChoice`, `EncoderPaceTrial.Pace`), the judgement of a recording's first
/// seconds (`EncoderPace`), and the cheaper setting the warnings name — all on plain
/// values: times are given, never read from a clock.
@Suite struct EncoderPaceTests {
    let rate = FrameRateValue(30)
    let superfast = EncoderEffort(preset: "superfast", oneThread: true)
    let ultrafast = EncoderEffort(preset: "ultrafast", oneThread: true)
    let pool = EncoderEffort(preset: "ultrafast", oneThread: false)
    var x265: [EncoderEffort] { EncoderEffort.ladder(for: "x265enc") }

    @Test func laddersGoFromTheBestPictureToTheCheapest() {
        #expect(x265 == [superfast, ultrafast, pool])
        #expect(EncoderEffort.ladder(for: "x264enc").map(\.preset) == ["faster", "veryfast", "ultrafast"])
        #expect(EncoderEffort.ladder(for: "jpegenc").isEmpty && EncoderEffort.ladder(for: "vah265enc").isEmpty)
        #expect(EncoderEffort.cheapest(in: x265) == ultrafast)
        #expect(EncoderEffort.cheapest(in: EncoderEffort.ladder(for: "x264enc"))?.preset == "ultrafast")
        #expect(EncoderEffort.cheapest(in: []) == nil)
    }

    /// (measured fps per step, nil: not tried or failed) → (chosen, keeps up, steps tried).
    @Test(arguments: [
        ([80.0, 120, 150], 0, true, 1),          // quiet: the best picture keeps up; nothing else is tried
        ([41, 102, 130], 1, true, 2),            // superfast too slow (45 needed): ultrafast on one thread
        ([30, 40, 60], 2, true, 3),              // one thread too slow for the size: the pool
        ([2.2, 9, 0], 1, false, 3),              // a busy machine: nothing keeps up, the fastest
        ([29, 29, 8.7], 1, false, 3),            // a tie: the cheapest (one thread, ultrafast)
        ([20, 10, 30], 2, false, 3),             // the pool clearly fastest though none keeps up
        ([45, 200, 300], 0, true, 1),            // exactly the rate × 1.5
    ] as [([Double], Int, Bool, Int)])
    func effortChoice(_ fps: [Double], _ chosen: Int, _ keepsUp: Bool, _ triedCount: Int) throws {
        var asked: [EncoderEffort] = []
        let choice = try #require(EffortChoice.choose(x265, rate: rate) { effort in
            asked.append(effort)
            return fps[x265.firstIndex(of: effort) ?? 0]
        })
        #expect(choice.effort == x265[chosen])
        #expect(choice.keepsUp == keepsUp)
        #expect(asked.count == triedCount && choice.tried.count == triedCount)
        #expect(choice.needed == 45)
        #expect((choice.warning(factory: "x265enc", codec: .h265, size: FrameSize(width: 1280, height: 720), rate: rate) == nil) == keepsUp)
    }

    @Test func effortChoiceWithoutMeasurements() {
        // No trial could run: the cheapest, unmeasured, with a warning that says so.
        let unmeasured = EffortChoice.choose(x265, rate: rate) { _ in nil }
        #expect(unmeasured?.effort == ultrafast && unmeasured?.framesPerSecond == nil && unmeasured?.keepsUp == false)
        #expect(unmeasured?.warning(factory: "x265enc", codec: .h265, size: FrameSize(width: 640, height: 480), rate: rate)
                == "x265enc could not be timed on test frames here: recording at its cheapest effort (ultrafast, one thread); a warning follows if it falls behind")
        #expect(EffortChoice.choose([], rate: rate) { _ in 100 } == nil)
        // A step that failed to run is passed over.
        let choice = EffortChoice.choose(x265, rate: rate) { $0 == superfast ? nil : 50 }
        #expect(choice?.effort == ultrafast && choice?.keepsUp == true)
        #expect(choice?.reason == "--quality auto: ultrafast, one thread (timed here: superfast, one thread not measured; ultrafast, one thread 50 fps; 45 fps needed)")
    }

    @Test func theWarningWhenNothingKeepsUpNamesCheaperSettings() throws {
        let choice = try #require(EffortChoice.choose(x265, rate: rate) { $0 == ultrafast ? 22 : 13 })
        #expect(choice.warning(factory: "x265enc", codec: .h265, size: FrameSize(width: 1280, height: 720), rate: rate)
                == "x265enc encoded only 22 test frames a second here at its cheapest effort (ultrafast, one thread), for 1280x720 at 30 fps: frames may be lost; use --codec h264 (x264 needs under half x265's CPU) or --fps 15")
    }

    /// Output times (ms) → the pace known at `now` (ms), or at the end of the frames.
    @Test(arguments: [
        // 3 warm-up outputs, then 21 timed ones 10 ms apart: 100 fps, known at the 21st.
        ((0..<3).map { $0 * 500 } + (0...20).map { 2000 + $0 * 10 }, 2200, 100.0 as Double?),
        // 3 warm-up outputs, then one every 100 ms: after 20/45 s (444 ms) past the first
        // timed one it is known to be too slow: 4 frames in 444 ms... measured as 9 fps.
        ([0, 1, 2] + (0...4).map { 1000 + $0 * 100 }, 1445, 9.0),
        // The same asked earlier: not known yet.
        ([0, 1, 2] + (0...4).map { 1000 + $0 * 100 }, 1400, nil),
        // Nothing timed yet (warm-up only).
        ([0, 1, 2], 5000, nil),
    ] as [([Int], Int, Double?)])
    func trialPace(_ outputs: [Int], _ now: Int, _ expected: Double?) {
        var pace = EncoderPaceTrial.Pace(needed: 45)
        for time in outputs { pace.output(at: .milliseconds(time)) }
        let measured = pace.framesPerSecond(at: .milliseconds(now))
        #expect(measured.map { ($0 * 10).rounded() / 10 } == expected.map { ($0 * 10).rounded() / 10 }, "\(String(describing: measured))")
    }

    /// The trial's time is up (an encoder starved by a busy machine): its pace so far, 0
    /// before two timed outputs, never nil.
    @Test func trialPaceWhenTheTimeIsUp() {
        var pace = EncoderPaceTrial.Pace(needed: 45)
        #expect(pace.framesPerSecond(until: .seconds(2)) == 0)
        for time in [0, 1, 2, 1000] { pace.output(at: .milliseconds(time)) }
        #expect(pace.framesPerSecond(until: .seconds(2)) == 0)
        pace.output(at: .milliseconds(1500))
        #expect(pace.framesPerSecond(until: .seconds(2)) == 1)
    }

    @Test func trialPaceAtTheEndOfTheFrames() {
        var pace = EncoderPaceTrial.Pace(needed: 45)
        for time in [0, 1, 2, 100, 150, 200] { pace.output(at: .milliseconds(time)) }
        #expect(pace.framesPerSecondAtEnd() == 20)
        var short = EncoderPaceTrial.Pace(needed: 45)
        for time in [0, 1, 2, 3] { short.output(at: .milliseconds(time)) }
        #expect(short.framesPerSecondAtEnd() == nil)
    }

    /// Frames at `rate`, the encoder taking one every `taken` ms after a start of `start` ms:
    /// the lag of each (ms) at the time it is taken.
    func frames(taken: Double, count: Int, start: Double = 0, stallAt: Int? = nil, stall: Double = 0) -> [(lag: Int64, at: UInt64)] {
        var clock = start
        return (0..<count).map { index in
            let capture = Double(index) * 1000 / 30
            clock = max(clock + taken, capture + 5)
            if index == stallAt { clock += stall }
            return (Int64((clock - capture) * 1e6), UInt64(clock * 1e6))
        }
    }

    func judge(_ samples: [(lag: Int64, at: UInt64)]) -> (EncoderPace.Finding?, Int?) {
        var pace = EncoderPace(rate: rate)
        for (index, sample) in samples.enumerated() {
            if let finding = pace.note(lag: sample.lag, at: sample.at) { return (finding, index) }
        }
        return (nil, nil)
    }

    @Test func anEncoderThatKeepsUpIsJudgedSoOnceTheWindowPasses() {
        let (finding, index) = judge(frames(taken: 20, count: 300))
        #expect(finding == .keepsUp)
        #expect(index == 151, "judged at the first frame 5 s after the first one")
        // A slow start (the encoder's set-up: 1 s for the first frame) is not judged.
        #expect(judge(frames(taken: 20, count: 300, start: 1000)).0 == .keepsUp)
        // One stall of 300 ms (a keyframe, the disk) is within the margin.
        #expect(judge(frames(taken: 20, count: 300, stallAt: 60, stall: 300)).0 == .keepsUp)
    }

    @Test(arguments: [(100.0, 10.0), (40, 25), (50, 20), (1000, 1)])
    func aSlowEncoderIsFoundAndItsPaceMeasured(_ taken: Double, _ fps: Double) throws {
        let (finding, _) = judge(frames(taken: taken, count: 300))
        guard case .behind(let measured)? = finding else {
            Issue.record("not found behind: \(String(describing: finding))")
            return
        }
        #expect(abs(measured - fps) < 0.6, "\(measured)")
    }

    /// Issue 37 item 3: once frames are left out before the encoder, its lag stops growing;
    /// the encoder is behind all the same, and its pace is the frames it takes a second.
    @Test func withFramesLeftOutTheEncoderIsBehindAtItsOwnPace() throws {
        var pace = EncoderPace(rate: rate)
        var finding: EncoderPace.Finding?
        // Ten frames a second, each 0.4 s after its capture: a lag held, not growing.
        for index in 0..<100 where finding == nil {
            finding = pace.note(lag: 400_000_000, at: UInt64(index) * 100_000_000, shedding: index >= 12)
        }
        guard case .behind(let measured)? = finding else {
            Issue.record("not found behind: \(String(describing: finding))")
            return
        }
        #expect(abs(measured - 10) < 0.6, "\(measured)")
        // The same frames without shedding: a steady lag is an encoder that keeps up.
        var steady = EncoderPace(rate: FrameRateValue(10))
        let findings = (0..<100).compactMap { steady.note(lag: 400_000_000, at: UInt64($0) * 100_000_000) }
        #expect(findings == [.keepsUp])
    }

    @Test func aFindingIsGivenOnce() {
        var pace = EncoderPace(rate: rate)
        let findings = frames(taken: 100, count: 100).compactMap { pace.note(lag: $0.lag, at: $0.at) }
        #expect(findings.count == 1)
    }

    /// The warning names what costs less and is known to keep up, for what was asked.
    @Test func theWarningNamesTheCheaperSetting() {
        var settings = EncoderSettings(quality: .high, codec: .h265, factory: "x265enc")
        #expect(EncoderPace.warning(settings, rate: rate, framesPerSecond: 21)
                == "encoder falling behind: x265enc encodes about 21 frames a second here (measured in the first seconds), the movie has 30: camrec will leave frames out evenly to keep the movie in time; use --quality auto (camrec times x265enc and lowers its effort until it keeps up), --quality medium, --codec h264 (x264 needs under half x265's CPU) or --fps 15")
        // Already auto: no quality to lower.
        settings.effort = EncoderEffort(preset: "ultrafast", oneThread: true)
        #expect(EncoderPace.warning(settings, rate: rate, framesPerSecond: 12).hasSuffix("; use --codec h264 (x264 needs under half x265's CPU) or --fps 10"))
        // --bitrate: the bits are asked for; only the effort can change.
        settings = EncoderSettings(bitrate: 2000, quality: .medium, codec: .h265, factory: "x265enc")
        #expect(EncoderPace.warning(settings, rate: rate, framesPerSecond: 21).contains("--quality auto (camrec times x265enc and lowers its effort until it keeps up), --codec h264"))
        // A hardware encoder: software, or fewer frames.
        settings = EncoderSettings(codec: .h264, factory: "fakehwh264enc")
        settings.hardware = true
        #expect(EncoderPace.warning(settings, rate: rate, framesPerSecond: 10).hasSuffix("; use --encoder software or --fps 6"))
        // Barely behind: no whole rate below 90 % of it that thins 30 evenly above 15.
        #expect(EncoderPaceAdvice.fewerFrames(rate: rate, framesPerSecond: 29) == 15)
        #expect(EncoderPaceAdvice.fewerFrames(rate: rate, framesPerSecond: 1) == nil)
        #expect(EncoderPaceAdvice.fewerFrames(rate: rate, framesPerSecond: 40) == nil)
    }

    /// The efforts as x265enc's properties: one thread is `pools=none`, merged with
    /// `--bitrate`'s options into one option-string.
    @Test func effortsAsProperties() {
        func element(_ effort: EncoderEffort?, asked: Bool = false, factory: String = "x265enc") -> String {
            EncoderProfile.make(factory: factory, settings: .init(codec: .h265, quality: .medium, bitrate: 1161, gop: 30,
                                                                  bitrateAsked: asked, effort: effort)) { _ in false }.element
        }
        #expect(element(nil) == "x265enc speed-preset=ultrafast tune=zerolatency key-int-max=30 bitrate=1161")
        #expect(element(superfast) == "x265enc speed-preset=superfast tune=zerolatency key-int-max=30 bitrate=1161 option-string=\"pools=none\"")
        #expect(element(pool) == "x265enc speed-preset=ultrafast tune=zerolatency key-int-max=30 bitrate=1161")
        #expect(element(ultrafast, asked: true).hasSuffix("option-string=\"vbv-maxrate=1161:vbv-bufsize=1161:strict-cbr=1:pools=none\""))
        #expect(element(EncoderEffort(preset: "faster", oneThread: false), factory: "x264enc").hasPrefix("x264enc speed-preset=faster "))
    }
}

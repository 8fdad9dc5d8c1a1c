@testable import CamrecKit
import CamrecCore
import GStreamer
import Testing

/// Text read while recording, its plain parts: when a frame is due (`TextSchedule`), which
/// readings `--text-changes` reports, the options' checks, and the luma plane taken as the
/// grey picture. No libtesseract and no pipeline needed.
@Suite("Text while recording, plain parts")
struct RecordingTextTests {
    static let thirty = FrameRateValue(numerator: 30, denominator: 1)

    /// Frame times (ns after the movie's first) of a 30 fps camera: frame `n` at n/30 s,
    /// with a jitter of up to a fifth of a frame.
    static func frameTime(_ n: Int, jitter: Int = 0) -> UInt64 {
        UInt64(n) * 1_000_000_000 / 30 + UInt64(jitter * 6_000_000)
    }

    @Test func aFrameIsDueAtTheStartAndThenEveryPeriodOfCameraTime() {
        var schedule = TextSchedule(every: TimeSpec(nanoseconds: 1_000_000_000), rate: Self.thirty)
        let due = (0..<100).filter { schedule.isDue(time: Self.frameTime($0, jitter: $0 % 3 == 0 ? 1 : 0)) }
        #expect(due == [0, 30, 60, 90])
    }

    /// Whether each of `times` (ns), fed in order, is due.
    static func due(every period: UInt64, _ times: [UInt64]) -> [Bool] {
        var schedule = TextSchedule(every: TimeSpec(nanoseconds: Int64(period)), rate: thirty)
        return times.map { schedule.isDue(time: $0) }
    }

    @Test func theFrameNearestEachMomentIsDueEvenJustBeforeIt() {
        // Half a second at 30 fps: a frame stamped a little early (within half a frame,
        // 16.7 ms) stands for its moment, and the next one is not due again.
        #expect(Self.due(every: 500_000_000, [0, 480_000_000, 495_000_000, 500_000_000]) == [true, false, true, false])
    }

    @Test func aStalledCameraGivesOneReadingNotABurst() {
        // Nothing for 3.4 s: the next frame is due once, and the grid goes on at 4 s.
        let times: [UInt64] = [0, 3_400_000_000, 3_433_000_000, 3_900_000_000, 4_000_000_000]
        #expect(Self.due(every: 1_000_000_000, times) == [true, true, false, false, true])
    }

    @Test func onlyChangesAreReportedWithTextChanges() {
        var changes = TextChangeFilter(changesOnly: true)
        let readings = ["DOCK 14", "DOCK 14", "", "", "DOCK 15", "DOCK 15", "DOCK 14"]
        let reported = readings.map { changes.reports($0) }
        #expect(reported == [true, false, true, false, true, false, true])
        // A reading asked for is always reported, and later ones are compared with it.
        let asked = changes.reports("DOCK 14", asked: true)
        let after = changes.reports("DOCK 14")
        #expect(asked && !after)
        var every = TextChangeFilter(changesOnly: false)
        let all = readings.map { every.reports($0) }
        #expect(!all.contains(false))
    }

    @Test func theOptionsAreCheckedAsGiven() throws {
        #expect(try RecordingTextSettings.parse(text: false, every: nil, changes: false, lang: nil, region: nil) == nil)
        let every = try #require(try RecordingTextSettings.parse(text: false, every: "5s", changes: true, lang: "eng+deu",
                                                                 region: "0,600,1280,120"))
        #expect(every.every == TimeSpec(nanoseconds: 5_000_000_000) && every.changesOnly && !every.stills)
        #expect(every.languages == ["eng", "deu"] && every.region == TextRegion(x: 0, y: 600, width: 1280, height: 120))
        let onRequest = try #require(try RecordingTextSettings.parse(text: true, every: nil, changes: false, lang: nil, region: nil))
        #expect(onRequest.every == nil && onRequest.stills && onRequest.languages == ["eng"])
        for (text, every, changes, lang, region, said) in [
            (false, nil as String?, true, nil as String?, nil as String?, "--text-changes goes with --text-every"),
            (false, nil, false, "eng", nil, "--text-lang goes with --text-every"),
            (false, nil, false, nil, "0,0,10,10", "--text-region goes with --text-every"),
            (true, nil, true, nil, nil, "--text-changes filters the readings of --text-every"),
            (false, "0", false, nil, nil, "--text-every: give a time above 0"),
            (false, "soon", false, nil, nil, "--text-every: invalid duration"),
            (false, "1s", false, "eng/x", nil, "--text-lang 'eng/x'"),
            (false, "1s", false, nil, "0,0,0,10", "--text-region '0,0,0,10'"),
        ] {
            let error = #expect(throws: CamrecError.self) {
                try RecordingTextSettings.parse(text: text, every: every, changes: changes, lang: lang, region: region)
            }
            #expect(error?.status == .usage && error?.message.contains(said) == true, "\(error?.message ?? "")")
        }
        let outside = #expect(throws: CamrecError.self) {
            try every.check(frameSize: FrameSize(width: 640, height: 480))
        }
        #expect(outside?.message.contains("lies outside the 640x480 picture") == true, "\(outside?.message ?? "")")
        try every.check(frameSize: FrameSize(width: 1280, height: 720))
    }

    @Test func theLumaPlaneIsTheGreyPictureWhateverItsStride() throws {
        // A 3x2 I420 frame with rows of 4 bytes, after an 8-byte header: plane 0 is luma.
        let bytes: [UInt8] = Array(repeating: 9, count: 8) + [1, 2, 3, 0, 4, 5, 6, 0] + Array(repeating: 128, count: 4)
        let layout = VideoFrameLayout(format: "I420", width: 3, height: 2, offsets: [8, 16, 18], strides: [4, 2, 2])
        let grey = try #require(bytes.withUnsafeBytes { GreyImage(luma: $0, layout: layout) })
        #expect(grey == GreyImage(width: 3, height: 2, pixels: [1, 2, 3, 4, 5, 6]))
        // Too short for its layout: nothing.
        #expect(Array(bytes.prefix(14)).withUnsafeBytes { GreyImage(luma: $0, layout: layout) } == nil)
    }
}

@testable import CamrecKit
@testable import Trim
import Testing

/// The cut on the presentation timeline, with plain values: negative times from the end,
/// clamping, the refusals, buffer times under an edit list, and Matroska's milliseconds.
@Suite("Trim CutTimes")
struct CutTimesTests {
    static let second: Int64 = 1_000_000_000
    static let length = 4 * second

    static func resolve(_ start: TimeSpec?, _ end: TimeSpec?, length: Int64 = length) throws -> CutTimes {
        try CutTimes.resolve(TrimRequest(input: "in.mkv", start: start, end: end), length: length, name: "in.mkv")
    }

    static func negative(_ nanoseconds: Int64) -> TimeSpec { TimeSpec(nanoseconds: -nanoseconds) }

    @Test func startAndEndFromTheStart() throws {
        #expect(try Self.resolve(.seconds(1), .seconds(3)) == CutTimes(start: Self.second, end: 3 * Self.second))
        #expect(try Self.resolve(.seconds(1), nil) == CutTimes(start: Self.second, end: Self.length))
        #expect(try Self.resolve(nil, .seconds(2)) == CutTimes(start: 0, end: 2 * Self.second))
    }

    @Test func negativeTimesCountBackFromTheEndAndAreClamped() throws {
        #expect(try Self.resolve(nil, Self.negative(Self.second)) == CutTimes(start: 0, end: 3 * Self.second))
        #expect(try Self.resolve(Self.negative(Self.second), nil) == CutTimes(start: 3 * Self.second, end: Self.length))
        // Clamped, and said (issue 29 item 14).
        let early = try Self.resolve(Self.negative(10 * Self.second), nil)
        #expect(early.start == 0 && early.end == Self.length)
        #expect(early.notes.count == 1 && early.notes[0].contains("cut from its start"), "\(early.notes)")
        let late = try Self.resolve(.seconds(1), .seconds(10))
        #expect(late.start == Self.second && late.end == Self.length)
        #expect(late.notes.count == 1 && late.notes[0].contains("cut to its end"), "\(late.notes)")
    }

    @Test func aStartPastTheEndOrNotBeforeTheEndIsRefused() {
        #expect {
            try Self.resolve(.seconds(5), nil)
        } throws: { error in
            guard let error = error as? CamrecError else { return false }
            return error.kind == .invalidInput && error.message.contains("past the end of in.mkv")
                && error.message.contains("4.000s")
        }
        #expect {
            try Self.resolve(.seconds(3), Self.negative(2 * Self.second))
        } throws: { error in
            guard let error = error as? CamrecError else { return false }
            return error.kind == .invalidInput && error.message.contains("--start") && error.message.contains("--end")
        }
    }

    @Test("buffer times: shifted by the edit list's offset, either way, less the slack")
    func bufferTimes() {
        let times = CutTimes(start: Self.second, end: 3 * Self.second)
        let slack = CutTimes.slack
        #expect(times.bufferTimes(presentationOffset: 0) == (Self.second - slack, 3 * Self.second - slack))
        #expect(times.bufferTimes(presentationOffset: 66_666_666)
            == (Self.second + 66_666_666 - slack, 3 * Self.second + 66_666_666 - slack))
        #expect(times.bufferTimes(presentationOffset: -Self.second) == (-slack, 2 * Self.second - slack))
    }

    @Test("Matroska's whole milliseconds: --end -3 and --start -3 split a 4 s video at its frame at 1 s")
    func matroskaRounding() throws {
        // 120 frames at 30 fps stored in whole milliseconds (1 s reads 1.000, 3.967 s reads
        // 3.967), each lasting the exact 33.333333 ms the track's default duration gives: the
        // video ends at 4.000333 s, so 3 s before the end is 1.000333 s, past the frame at 1 s.
        let duration: Int64 = 33_333_333
        let frames = (0..<120).map { n in
            VideoFrame(pts: (Int64(n) * 1000 + 15) / 30 * 1_000_000, duration: duration, isKeyframe: n % 30 == 0)
        }
        let index = FrameIndex(
            container: .matroska, video: frames, videoCaps: "video/x-h264", videoMediaType: "video/x-h264",
            codecData: nil, audio: [], audioMediaType: nil, audioCaps: nil, audioPresentationOffset: 0,
            presentationOffset: 0
        )
        #expect(index.videoEnd == 4_000_333_333)
        let planner = SmartCutPlanner(frames: frames)
        let head = try Self.resolve(nil, Self.negative(3 * Self.second), length: index.videoEnd)
        #expect(head.end > Self.second, "without the slack the frame at 1 s would be kept")
        let headRange = head.bufferTimes(presentationOffset: 0)
        let kept = try planner.plan(start: headRange.start, end: headRange.end, mode: .accurate)
        #expect(kept.frameCount == 30)
        #expect(kept.lastPTS == 967_000_000)
        let tail = try Self.resolve(Self.negative(3 * Self.second), nil, length: index.videoEnd)
        let tailRange = tail.bufferTimes(presentationOffset: 0)
        let rest = try planner.plan(start: tailRange.start, end: tailRange.end, mode: .accurate)
        #expect(rest.firstPTS == Self.second)
        #expect(rest.frameCount == 90)
    }
}

@testable import CamrecKit
import Testing

/// The PTS look-up the writers use for every re-encoded frame (an O(1) map in place of a
/// scan of all frames per frame).
@Suite("Trim FramesByPTS")
struct TrimFramesByPTSTests {
    /// An IBBP stream in decode order: PTS 0, 3, 1, 2, 6, 4, 5 (in frame durations of 10 ms).
    static let frames: [VideoFrame] = [0, 3, 1, 2, 6, 4, 5].enumerated().map { decode, slot in
        VideoFrame(pts: Int64(slot) * 10_000_000, dts: Int64(decode) * 10_000_000, duration: 10_000_000 + Int64(slot),
                   isKeyframe: slot == 0)
    }

    @Test func findsEveryFrameOfTheRangeByItsPTS() {
        let lookup = FramesByPTS(Self.frames, in: 0...6)
        #expect(lookup.count == 7)
        for (index, frame) in Self.frames.enumerated() {
            #expect(lookup.index(of: frame.pts) == index)
        }
    }

    @Test func framesOutsideTheRangeAndUnknownTimesAreNotFound() {
        let lookup = FramesByPTS(Self.frames, in: 2...4)
        #expect(lookup.count == 3)
        #expect(lookup.index(of: 10_000_000) == 2)
        #expect(lookup.index(of: 60_000_000) == 4)
        #expect(lookup.index(of: 0) == nil)  // decode index 0: outside the range
        #expect(lookup.index(of: 50_000_000) == nil)  // decode index 6: outside the range
        #expect(lookup.index(of: 15_000_000) == nil)  // between two frames
    }

    @Test func theFirstInDecodeOrderWinsWhenTwoFramesShareAPTS() {
        var frames = Self.frames
        frames[5].pts = frames[1].pts  // a broken stream: decode indices 1 and 5 both at 30 ms
        let lookup = FramesByPTS(frames, in: 0...6)
        #expect(lookup.index(of: 30_000_000) == 1)
        #expect(lookup.count == 6)
    }

    @Test func aLongStreamIsIndexedWhole() {
        // 10 minutes at 30 fps with B-frame reordering in pairs.
        let count = 18_000
        let frames = (0..<count).map { index in
            let slot = index % 2 == 0 ? index + 1 : index - 1
            return VideoFrame(pts: Int64(slot) * 33_333_333, dts: Int64(index) * 33_333_333, duration: 33_333_333,
                              isKeyframe: index % 30 == 0)
        }
        let lookup = FramesByPTS(frames, in: 0...(count - 1))
        #expect(lookup.count == count)
        #expect((0..<count).allSatisfy { lookup.index(of: frames[$0].pts) == $0 })
    }
}

@testable import CamrecKit
@testable import Trim
import GStreamer
import Testing

/// AVI as a trim input (issue 30 item 12): recognised, written as Matroska, and MPEG-4
/// Part 2 frames put in display order from their VOP types.
@Suite("AVI input")
struct AVIInputTests {
    @Test func recognisedByItsRIFFHeader() {
        let header = Array("RIFF".utf8) + [0x10, 0, 0, 0] + Array("AVI LIST".utf8)
        #expect(MediaContainer.sniff(header) == .avi)
        #expect(MediaContainer.sniff(Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WAVEfmt ".utf8)) == nil)
        #expect(MediaContainer.avi.demuxer == "avidemux")
        #expect(MediaContainer.avi.written == .matroska)
        #expect(MediaContainer.mp4.written == .mp4)
    }

    @Test func itsTrimIsWrittenBesideItAsMatroska() {
        #expect(TrimOutput.besideInput("dashcam/clip.AVI", container: .avi) == "dashcam/clip-trimmed.mkv")
        #expect(TrimOutput.besideInput("clip.mp4", container: .mp4) == "clip-trimmed.mp4")
    }

    @Test func anAVIOutputIsAUsageError() {
        let request = TrimRequest(input: "in.avi", start: .seconds(1), destination: .path("out.avi"))
        #expect {
            try request.validate()
        } throws: { error in
            guard let error = error as? CamrecError else { return false }
            return error.kind == .usage && error.message.contains("writes no AVI")
        }
    }

    static func vop(_ type: UInt8) -> [UInt8] { [0, 0, 1, 0xB6, type << 6 | 0x10, 0x42] }

    @Test func vopTypesAreRead() {
        let frame = [0, 0, 1, 0xB0, 0xF5] + Self.vop(2) + [0, 0, 0]
        #expect(frame.withUnsafeBytes { MPEG4FrameOrder.vopTypes($0) } == [2])
        let packed = Self.vop(1) + Self.vop(2)
        #expect(packed.withUnsafeBytes { MPEG4FrameOrder.vopTypes($0) } == [1, 2])
    }

    static func timing(_ dts: UInt64, key: Bool = false) -> BufferTiming {
        BufferTiming(pts: key ? dts : nil, dts: dts, duration: 10, isKeyframe: key, size: 1)
    }

    @Test("I P B B P B B: the B-frames are shown before the P-frame decoded before them")
    func bFramesReordered() throws {
        // Decode order I0 P3 B1 B2 P6 B4 B5; AVI times 0, 10, ... 60.
        let timings = (0..<7).map { Self.timing(UInt64($0 * 10), key: $0 == 0) }
        let types: [[UInt8]] = [[0], [1], [2], [2], [1], [2], [2]]
        let ordered = try #require(MPEG4FrameOrder.presentationTimes(timings, types: types))
        #expect(ordered.map(\.pts) == [0, 30, 10, 20, 60, 40, 50])
        #expect(ordered.allSatisfy { $0.dts == nil })
    }

    @Test func withoutBFramesTheStoredTimesAreShown() throws {
        let timings = (0..<3).map { Self.timing(UInt64($0 * 10), key: $0 == 0) }
        let ordered = try #require(MPEG4FrameOrder.presentationTimes(timings, types: [[0], [1], [1]]))
        #expect(ordered.map(\.pts) == [0, 10, 20])
    }

    @Test func aPackedBitstreamHasNoOrder() {
        let timings = (0..<2).map { Self.timing(UInt64($0 * 10), key: $0 == 0) }
        #expect(MPEG4FrameOrder.presentationTimes(timings, types: [[0], [1, 2]]) == nil)
    }
}

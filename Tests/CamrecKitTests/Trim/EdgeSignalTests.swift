@testable import CamrecKit
@testable import Trim
import MP4
import Testing

/// What the re-encoded edges declare (issue 30 item 7): the source's H.264 VUI signal, VP9
/// colour space and MPEG-4 profile written into the encoder's output.
@Suite("Edge signal: the source's declarations in re-encoded edges")
struct EdgeSignalTests {
    /// A Baseline 320x240 SPS (NAL header first), with a VUI whose signal type and chroma
    /// location are `signal` (nil: no VUI), and timing info after them.
    static func sequenceSet(vui: Bool, type: [Int]?, location: [Int]?) -> [UInt8] {
        var writer = BitWriter()
        writer.put(0x67, bits: 8)
        writer.put(66, bits: 8)
        writer.put(0xC0, bits: 8)
        writer.put(13, bits: 8)
        writer.putExpGolomb(0)  // sps id
        writer.putExpGolomb(0)  // log2_max_frame_num - 4
        writer.putExpGolomb(2)  // pic_order_cnt_type
        writer.putExpGolomb(1)  // max_num_ref_frames
        writer.put(0)  // gaps
        writer.putExpGolomb(19)
        writer.putExpGolomb(14)
        writer.put(1)  // frame_mbs_only
        writer.put(1)  // direct_8x8
        writer.put(0)  // cropping
        writer.put(vui ? 1 : 0)
        if vui {
            writer.put(0)  // aspect
            writer.put(0)  // overscan
            if let type {
                writer.put(1)
                writer.put(type[0], bits: 3)
                writer.put(type[1])
                writer.put(type.count == 5 ? 1 : 0)
                for value in type.dropFirst(2) { writer.put(value, bits: 8) }
            } else {
                writer.put(0)
            }
            if let location {
                writer.put(1)
                writer.putExpGolomb(location[0])
                writer.putExpGolomb(location[1])
            } else {
                writer.put(0)
            }
            writer.put(1)  // timing_info_present
            writer.put(1, bits: 32)
            writer.put(60, bits: 32)
            writer.put(1)  // fixed rate
            writer.put(0)  // nal hrd
            writer.put(0)  // vcl hrd
            writer.put(0)  // pic_struct
            writer.put(0)  // bitstream_restriction
        }
        writer.alignWithZeros()
        return RBSPReader.addingEmulationPrevention(writer.bytes)
    }

    static let x264Edge = sequenceSet(vui: true, type: [5, 0, 6, 6, 6], location: [1, 1])

    @Test func aSourceWithoutVUIGivesEdgesWithoutSignal() throws {
        let source = Self.sequenceSet(vui: false, type: nil, location: nil)
        let rewritten = try #require(H264SignalRewrite.sequenceSet(Self.x264Edge, declaringAs: source))
        #expect(H264SignalRewrite.signal(rewritten) == H264SignalRewrite.Signal())
        #expect(rewritten == Self.sequenceSet(vui: true, type: nil, location: nil))
        #expect(H264Format(sequenceSet: rewritten) == H264Format(sequenceSet: Self.x264Edge))
        // And back: the other fields (timing) were kept bit for bit.
        #expect(H264SignalRewrite.sequenceSet(rewritten, declaringAs: Self.x264Edge) == Self.x264Edge)
    }

    @Test func theSourcesRangeDescriptionAndLocationAreTaken() throws {
        let source = Self.sequenceSet(vui: true, type: [5, 1, 1, 1, 1], location: [0, 0])
        let rewritten = try #require(H264SignalRewrite.sequenceSet(Self.x264Edge, declaringAs: source))
        #expect(H264SignalRewrite.signal(rewritten) == H264SignalRewrite.Signal(videoType: [5, 1, 1, 1, 1], chromaLocation: [0, 0]))
        #expect(H264SequenceParameterSet(unit: rewritten)?.isFullRange == true)
        #expect(H264SignalRewrite.sequenceSet(Self.x264Edge, declaringAs: Self.x264Edge) == Self.x264Edge)
    }

    @Test func annexBFramesHaveTheirSequenceSetRewritten() {
        let source = Self.sequenceSet(vui: false, type: nil, location: nil)
        let slice: [UInt8] = [0x65, 0x88, 0x84, 0x00]
        let frame = [0, 0, 0, 1] + Self.x264Edge + [0, 0, 1] + slice
        let applied = EdgeSignal.h264(sequenceSet: source).applied(to: frame)
        #expect(StartCodes.units(applied) == [Self.sequenceSet(vui: true, type: nil, location: nil), slice])
        #expect(EdgeSignal.h264(sequenceSet: source).applied(to: [0, 0, 0, 1] + slice) == [0, 0, 0, 1] + slice)
    }

    @Test func vp9KeyframesTakeTheSourcesColourSpace() {
        // Profile 0 keyframe, shown: 10 0 0 0 0 1 0, sync code, colour space 1 (BT.601), studio range.
        let keyframe: [UInt8] = [0x82, 0x49, 0x83, 0x42, 0b0010_0000, 0x12, 0x34]
        #expect(VP9Header.colour(keyframe)?.space == 1 && VP9Header.colour(keyframe)?.fullRange == false)
        let unknown = VP9Header.settingColour(space: 0, fullRange: false, in: keyframe)
        #expect(unknown == [0x82, 0x49, 0x83, 0x42, 0b0000_0000, 0x12, 0x34])
        #expect(VP9Header.settingColour(space: 2, fullRange: true, in: keyframe)[4] == 0b0101_0000)
        // An inter frame (frame_type 1) has no colour configuration.
        let inter: [UInt8] = [0x86, 0x00, 0x00]
        #expect(VP9Header.settingColour(space: 0, fullRange: false, in: inter) == inter)
        #expect(EdgeSignal.of(codec: .vp9, codecData: nil, firstFrame: keyframe) == .vp9(colorSpace: 1, fullRange: false))
    }

    @Test func mpeg4EdgesTakeTheSourcesProfileAndLevel() {
        let vos: [UInt8] = [0, 0, 1, 0xB0, 0xF5, 0, 0, 1, 0xB5, 0x09]
        let signal = EdgeSignal.of(codec: .mpeg4Part2, codecData: vos, firstFrame: [])
        #expect(signal == .mpeg4(profileAndLevel: 0xF5))
        let edge: [UInt8] = [0, 0, 1, 0xB0, 0x01, 0, 0, 1, 0xB5, 0x09, 0, 0, 1, 0xB6, 0x10]
        #expect(signal?.applied(to: edge) == [0, 0, 1, 0xB0, 0xF5, 0, 0, 1, 0xB5, 0x09, 0, 0, 1, 0xB6, 0x10])
        #expect(signal?.applied(to: [0, 0, 1, 0xB6, 0x10]) == [0, 0, 1, 0xB6, 0x10])
    }
}

@testable import MP4
import Testing

/// The one H.264 SPS reader: every part of an x264 SPS, and a unit cut short keeping what
/// came before the cut.
@Suite("MP4 H264SequenceParameterSet")
struct H264SequenceParameterSetTests {
    /// The SPS of an `avcC` record ffmpeg's libx264 wrote for a 320x240 input (High, level 1.3).
    static let high: [UInt8] = [
        0x67, 0x64, 0x00, 0x0D, 0xAC, 0xD9, 0x41, 0x41, 0xFB, 0x01, 0x10, 0x00, 0x00,
        0x03, 0x00, 0x10, 0x00, 0x00, 0x03, 0x03, 0xC0, 0xF1, 0x42, 0x99, 0x60,
    ]

    @Test func readsEveryPart() throws {
        let sps = try #require(H264SequenceParameterSet(unit: Self.high))
        #expect(sps.profile == 100 && sps.level == 13 && sps.constraints == 0 && sps.id == 0)
        #expect(sps.format == H264SequenceParameterSet.Format(chromaFormat: 1, bitDepthLuma: 8, bitDepthChroma: 8))
        let size = try #require(sps.displaySize)
        #expect(size.width == 320 && size.height == 240)
        #expect(sps.hasVUI == true)
        let vui = try #require(sps.vui)
        #expect(vui.signalStart < vui.signalEnd)
        #expect(sps.isFullRange == false)
        // The sample entry's view of it agrees.
        let parameters = try #require(AVCSequenceParameters(nal: Self.high))
        #expect(parameters.width == 320 && parameters.height == 240 && parameters.profile == 100 && parameters.level == 13)
        #expect(parameters.frameRate.map { [$0.numerator, $0.denominator] } == vui.timing.map { [UInt32($0.timeScale), UInt32($0.unitsInTick) * 2] })
    }

    @Test func keepsWhatCameBeforeACut() throws {
        let header = try #require(H264SequenceParameterSet(unit: Array(Self.high.prefix(5))))
        #expect(header.profile == 100 && header.id == 0)
        #expect(header.picture == nil && header.hasVUI == nil && header.vui == nil && header.isFullRange == nil)
        #expect(AVCSequenceParameters(nal: Array(Self.high.prefix(5))) == nil)
        #expect(H264SequenceParameterSet(unit: [0x67, 0x64, 0x00]) == nil)
        #expect(H264SequenceParameterSet(unit: [0x68, 0xEE, 0x3C, 0x80]) == nil, "a PPS")
        #expect(H264SequenceParameterSet(unit: []) == nil)
    }
}

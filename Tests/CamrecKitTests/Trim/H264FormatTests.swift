@testable import CamrecKit
@testable import Trim
import Testing

/// The source's H.264 format read from its SPS, and the x264 settings the edges of a cut
/// get from it: the same chroma and bit depth, no higher a profile and level.
@Suite("Trim H264Format")
struct H264FormatTests {
    /// `avcC` records written by ffmpeg's libx264 for 320x240 (level 1.3) inputs.
    static let high8 = bytes("0164000dffe100196764000dacd94141fb0110000003001000000303c0f142996001000468ef8fcbfdf8f800")
    static let high10 = bytes("016e000dffe10019676e000da6cd94141fb0110000030001000003003c0f14299601000468ef8fcbfdfafa00")
    static let high422x10 = bytes("017a000dffe10019677a000db6cd94141fb0110000030001000003003c0f14299601000468ef8fcbfefafa00")
    static let baseline = bytes("0142c00dffe100166742c00dda0507ec0440000003004000000f03c50aa801000468ce0fc8")

    static func bytes(_ hex: String) -> [UInt8] {
        stride(from: 0, to: hex.count, by: 2).compactMap { offset in
            let start = hex.index(hex.startIndex, offsetBy: offset)
            return UInt8(hex[start..<hex.index(start, offsetBy: 2)], radix: 16)
        }
    }

    @Test func readsProfileLevelChromaAndBitDepth() throws {
        let high = try #require(H264Format(avcC: Self.high8))
        #expect(high == H264Format(profile: 100, level: 13, chromaFormat: 1, bitDepthLuma: 8, bitDepthChroma: 8))
        #expect(high.levelName == "1.3" && high.profileName == "High")
        let ten = try #require(H264Format(avcC: Self.high10))
        #expect(ten.profile == 110 && ten.chromaFormat == 1 && ten.bitDepthLuma == 10 && ten.bitDepthChroma == 10)
        let fourTwoTwo = try #require(H264Format(avcC: Self.high422x10))
        #expect(fourTwoTwo.profile == 122 && fourTwoTwo.chromaFormat == 2 && fourTwoTwo.bitDepthLuma == 10)
        let base = try #require(H264Format(avcC: Self.baseline))
        #expect(base.profile == 66 && base.chromaFormat == 1 && base.bitDepthLuma == 8)
        #expect(base.profileName == "Constrained Baseline")
        #expect(H264Format(sequenceSet: [0x68, 0xCE]) == nil)  // a PPS
        #expect(H264Format(sequenceSet: [0x67, 0x64]) == nil)  // cut short
    }

    @Test func levelOneBAndNames() {
        #expect(H264Format(profile: 66, constraints: 0x10, level: 11).levelName == "1b")
        #expect(H264Format(profile: 100, constraints: 0x10, level: 11).levelName == "1.1")
        #expect(H264Format(profile: 100, level: 40).levelName == "4")
        #expect(H264Format(profile: 100, level: 9).isLevel1b)
    }

    @Test("the edges take the source's chroma, bit depth, profile tools and level with its VBV")
    func edgeSettings() throws {
        let high = try VideoEncoding.h264Edges(matching: H264Format(avcC: Self.high8))
        #expect(high.rawCaps == "video/x-raw,format=I420")
        #expect(high.encoder.contains("cabac=true dct8x8=true"))
        // Level 1.3: 768 kbit/s and a 2000 kbit buffer, times 1.25 for High.
        #expect(high.encoder.contains("bitrate=960 vbv-buf-capacity=2604"))
        #expect(high.x264Options == ["level=1.3"])
        #expect(high.launchText(parameterSetID: 2).contains("option-string=\"sps-id=2:level=1.3\""))
        let ten = try VideoEncoding.h264Edges(matching: H264Format(avcC: Self.high10))
        #expect(ten.rawCaps == "video/x-raw,format=I420_10LE")
        #expect(ten.encoder.contains("bitrate=2304 "))  // High 10: three times
        let fourTwoTwo = try VideoEncoding.h264Edges(matching: H264Format(avcC: Self.high422x10))
        #expect(fourTwoTwo.rawCaps == "video/x-raw,format=I422_10LE")
        #expect(fourTwoTwo.encoder.contains("bitrate=3072 "))  // High 4:2:2: four times
        let base = try VideoEncoding.h264Edges(matching: H264Format(avcC: Self.baseline))
        #expect(base.encoder.contains("cabac=false dct8x8=false bitrate=768 "))
        let main = try VideoEncoding.h264Edges(matching: H264Format(profile: 77, level: 31))
        #expect(main.encoder.contains("cabac=true dct8x8=false bitrate=14000 vbv-buf-capacity=1000"))
        #expect(main.x264Options == ["level=3.1"])
        let eight422 = try VideoEncoding.h264Edges(matching: H264Format(profile: 122, level: 30, chromaFormat: 2))
        #expect(eight422.rawCaps == "video/x-raw,format=Y42B")
    }

    @Test("formats x264 cannot make are refused, with the reason")
    func unavailableFormats() {
        #expect(throws: VideoEncoding.Unavailable.self) {
            try VideoEncoding.h264Edges(matching: H264Format(profile: 244, level: 40, chromaFormat: 3, bitDepthLuma: 12, bitDepthChroma: 12))
        }
        #expect(throws: VideoEncoding.Unavailable.self) {
            try VideoEncoding.h264Edges(matching: H264Format(profile: 100, level: 40, chromaFormat: 0))
        }
    }
}

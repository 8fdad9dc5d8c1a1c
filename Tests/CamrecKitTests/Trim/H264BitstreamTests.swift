@testable import CamrecKit
@testable import Trim
import Testing

/// The one set of H.264 bitstream helpers, with hand-made access units.
@Suite struct H264BitstreamTests {
    /// A length-prefixed (4-byte) access unit of units given by their first byte.
    static func sample(_ headers: [UInt8]) -> [UInt8] {
        headers.flatMap { header -> [UInt8] in [0, 0, 0, 3, header, 0xAA, 0xBB] }
    }

    @Test func idrIsDecidedByTheFirstSlice() {
        let idr = Self.sample([0x09, 0x06, 0x67, 0x68, 0x65])          // AUD, SEI, SPS, PPS, IDR slice
        let nonIDR = Self.sample([0x09, 0x41])                          // AUD, non-IDR slice
        let noSlice = Self.sample([0x09, 0x06])
        for (bytes, expected) in [(idr, true), (nonIDR, false), (noSlice, false)] {
            #expect(bytes.withUnsafeBytes { H264Bitstream.isIDR($0, lengthSize: 4) } == expected)
            // The same answer reading only headers, as from a file.
            let read = H264Bitstream.isIDR(size: bytes.count, lengthSize: 4) { offset, count in
                offset + count <= bytes.count ? Array(bytes[offset..<offset + count]) : nil
            }
            #expect(read == expected)
        }
        // A length that runs past the end ends the walk: not an IDR.
        #expect([UInt8]([0, 0, 0, 9, 0x06]).withUnsafeBytes { H264Bitstream.isIDR($0, lengthSize: 4) } == false)
    }

    @Test func lengthSizeOfAnAVCRecord() {
        #expect(H264Bitstream.lengthSize(avcC: [1, 0x64, 0, 0x1F, 0xFF]) == 4)
        #expect(H264Bitstream.lengthSize(avcC: [1, 0x64, 0, 0x1F, 0xFD]) == 2)
        #expect(H264Bitstream.lengthSize(avcC: [0, 0, 0, 1, 0x67]) == nil)   // Annex B, not avcC
    }

    @Test func parameterSetsGoBeforeTheFirstSliceAfterTheDelimiter() {
        let accessUnit: [UInt8] = [0, 0, 0, 1, 0x09, 0xF0, 0, 0, 1, 0x65, 0x88]
        let sets: [UInt8] = [0, 0, 0, 1, 0x67, 0x42]
        #expect(H264ParameterSets.inserting(sets, beforeFirstSliceOf: accessUnit)
            == [0, 0, 0, 1, 0x09, 0xF0] + sets + [0, 0, 1, 0x65, 0x88])
        #expect(H264Bitstream.annexBUnits(accessUnit).map { Array($0) } == [[0x09, 0xF0], [0x65, 0x88]])
    }
}

@testable import CamrecKit
@testable import Trim
import Testing

@Suite("AVC samples")
struct AVCSamplesTests {
    // Small but well-formed parameter sets: SPS id 0 (High profile, 4:2:2) and PPS id 0.
    static let sequenceSet: [UInt8] = [0x67, 0x7A, 0x00, 0x1E, 0xBC, 0x40]  // profile 122, ue(0) id, ue(2) chroma
    static let pictureSet: [UInt8] = [0x68, 0xCE, 0x3C, 0x80]

    static func avcC(lengthSize: Int) -> [UInt8] {
        [1, 0x7A, 0, 0x1E, 0xFC | UInt8(lengthSize - 1), 0xE1, 0, UInt8(sequenceSet.count)] + sequenceSet
            + [1, 0, UInt8(pictureSet.count)] + pictureSet + [0xFE, 0xF8, 0xF8, 0]
    }

    @Test func annexBBecomesLengthPrefixedWithoutParameterSets() throws {
        let slice: [UInt8] = [0x65, 0x88, 0x84, 0x00, 0x21]
        let accessUnit: [UInt8] = [0, 0, 0, 1, 0x09, 0xF0] + [0, 0, 0, 1] + Self.sequenceSet
            + [0, 0, 1] + Self.pictureSet + [0, 0, 0, 1] + slice
        let converted = try #require(AVCSamples.sample(fromAnnexB: accessUnit, lengthSize: 4))
        #expect(converted.sample == [0, 0, 0, 5] + slice)
        #expect(converted.sets.sequenceSets == [Self.sequenceSet])
        #expect(converted.sets.pictureSets == [Self.pictureSet])
        #expect(AVCSamples.units(converted.sample, lengthSize: 4)?.map(Array.init) == [slice])
        // A two-byte length field cannot hold a unit of 65536 bytes.
        let big = [0, 0, 0, 1] + [UInt8](repeating: 0x41, count: 70_000)
        #expect(AVCSamples.sample(fromAnnexB: big, lengthSize: 2) == nil)
    }

    @Test func mergingKeepsHeaderAndTrailingFields() throws {
        let extraSPS: [UInt8] = [0x67, 0x64, 0x00, 0x1F, 0xAC]
        let extraPPS: [UInt8] = [0x68, 0xEB]
        var extra = H264ParameterSets()
        extra.sequenceSets = [extraSPS]
        extra.pictureSets = [extraPPS]
        let merged = try #require(AVCSamples.merging(extra, into: Self.avcC(lengthSize: 4)))
        let sets = try #require(H264ParameterSets(avcC: merged))
        #expect(sets.sequenceSets == [Self.sequenceSet, extraSPS])
        #expect(sets.pictureSets == [Self.pictureSet, extraPPS])
        #expect(Array(merged[0..<5]) == Array(Self.avcC(lengthSize: 4)[0..<5]))
        #expect(merged[5] == 0xE2)
        #expect(Array(merged.suffix(4)) == [0xFE, 0xF8, 0xF8, 0])
        #expect(H264Bitstream.lengthSize(avcC: merged) == 4)
    }

    @Test func disposableFramesAreNonReferenceSlices() {
        let nonReference: [UInt8] = [0, 0, 0, 3, 0x01, 0x9E, 0x00]  // nal_ref_idc 0, type 1
        let reference: [UInt8] = [0, 0, 0, 3, 0x41, 0x9A, 0x00]  // nal_ref_idc 2
        let seiThenNonReference: [UInt8] = [0, 0, 0, 2, 0x06, 0x05] + nonReference
        #expect(AVCSamples.isDisposable(nonReference, lengthSize: 4))
        #expect(AVCSamples.isDisposable(seiThenNonReference, lengthSize: 4))
        #expect(!AVCSamples.isDisposable(reference, lengthSize: 4))
        #expect(!AVCSamples.isDisposable([0, 0, 0, 9, 0x01], lengthSize: 4))  // truncated: keep it
    }

    @Test func chromaFormatFromTheSequenceSet() {
        #expect(AVCSamples.chromaFormat(sequenceSet: Self.sequenceSet) == "4:2:2")
        #expect(AVCSamples.chromaFormat(sequenceSet: [0x67, 0x42, 0x00, 0x1E, 0x80]) == "4:2:0")  // Baseline
    }
}

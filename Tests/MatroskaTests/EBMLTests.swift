@testable import Matroska
import Testing

/// EBML's reading and writing primitives, with plain bytes.
@Suite("EBML")
struct EBMLTests {
    @Test("an element header gives its ID, size field and body; the all-ones size is unknown")
    func elementHeader() throws {
        // Cluster (4-byte ID), 1-byte size 5.
        let cluster = try #require(EBML.element(in: [0x1F, 0x43, 0xB6, 0x75, 0x85, 0, 0, 0, 0, 0][...], at: 100))
        #expect(cluster.id == EBML.ID.cluster)
        #expect(cluster.start == 100 && cluster.sizeOffset == 104 && cluster.body == 105 && cluster.end == 110)
        // Segment of unknown size (8-byte all-ones size field).
        let segment = try #require(EBML.element(in: [0x18, 0x53, 0x80, 0x67, 0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF][...], at: 0))
        #expect(segment.size == nil && segment.end == nil && segment.sizeLength == 8 && segment.body == 12)
        // One-byte all-ones (0xFF) is unknown too; 0xFE is 126.
        #expect(EBML.element(in: [0xA3, 0xFF][...], at: 0)?.size == nil)
        #expect(EBML.element(in: [0xA3, 0xFE][...], at: 0)?.size == 126)
    }

    @Test("bytes that hold no whole header give none")
    func noHeader() {
        #expect(EBML.element(in: [][...], at: 0) == nil)
        #expect(EBML.element(in: [0x00, 0x81][...], at: 0) == nil)       // no ID marker in the first byte
        #expect(EBML.element(in: [0x08, 1, 2, 3, 4, 0x81][...], at: 0) == nil)  // a 5-byte ID
        #expect(EBML.element(in: [0x1F, 0x43, 0xB6][...], at: 0) == nil)  // cut inside the ID
        #expect(EBML.element(in: [0xA3, 0x40][...], at: 0) == nil)        // cut inside the size
    }

    @Test("a variable-length integer loses its marker bit; a slice is read from its start")
    func vint() throws {
        let bytes: [UInt8] = [9, 9, 0x81, 0x41, 0x2C, 0x10, 0, 0, 1]
        #expect(EBML.vint(bytes[2...])?.0 == 1 && EBML.vint(bytes[2...])?.1 == 1)
        #expect(EBML.vint(bytes[3...])?.0 == 300 && EBML.vint(bytes[3...])?.1 == 2)
        #expect(EBML.vint(bytes[5...])?.0 == 1 && EBML.vint(bytes[5...])?.1 == 4)
        #expect(EBML.vint(bytes[5..<7]) == nil)
    }

    @Test("IDs keep their marker bits; size fields refuse what does not fit")
    func writing() {
        #expect(EBML.idBytes(EBML.ID.cluster) == [0x1F, 0x43, 0xB6, 0x75])
        #expect(EBML.idBytes(EBML.ID.simpleBlock) == [0xA3])
        #expect(EBML.sizeField(5, length: 1) == [0x85])
        #expect(EBML.sizeField(127, length: 1) == nil)   // 0xFF would mean "unknown"
        #expect(EBML.sizeField(127, length: 2) == [0x40, 0x7F])
        #expect(EBML.sizeField(1, length: 9) == nil)
        #expect(EBML.unsigned(EBML.ID.trackNumber, 1) == [0xD7, 0x81, 0x01])
        #expect(EBML.unsigned(EBML.ID.timestampScale, 1_000_000) == [0x2A, 0xD7, 0xB1, 0x83, 0x0F, 0x42, 0x40])
        #expect(EBML.bigEndian(0x0102_0304, length: 2) == [0x03, 0x04])
    }

    @Test("a Void fills exactly the bytes it is given, and reads back as one element")
    func void() throws {
        #expect(EBML.void(total: 1) == nil)
        for total in [2, 3, 128, 129, 130, 5000] {
            let void = try #require(EBML.void(total: total), "\(total)")
            #expect(void.count == total)
            let element = try #require(EBML.element(in: void[...], at: 0))
            #expect(element.id == EBML.ID.void && element.end == UInt64(total), "\(total)")
        }
    }

    @Test("elements written are read back, values and text included")
    func roundTrip() throws {
        let entry = EBML.element(EBML.ID.trackEntry,
            EBML.unsigned(EBML.ID.trackNumber, 300) + EBML.element(EBML.ID.codecID, Array("A_OPUS".utf8) + [0, 0]))
        let top = try #require(EBML.element(in: entry[...], at: 0))
        let fields = try #require(EBML.children(of: entry, in: Int(top.body)..<entry.count))
        #expect(fields.map(\.id) == [EBML.ID.trackNumber, EBML.ID.codecID])
        #expect(EBML.unsigned(entry[fields[0].body]) == 300)
        #expect(EBML.text(entry[fields[1].body]) == "A_OPUS")
        // One byte short: the last child is not whole.
        #expect(EBML.children(of: Array(entry.dropLast()), in: Int(top.body)..<entry.count - 1) == nil)
    }

    @Test("block headers name a track as an EBML variable-length integer")
    func trackField() {
        #expect(EBML.trackField(1) == [0x81])
        #expect(EBML.trackField(126) == [0xFE])
        #expect(EBML.trackField(300) == [0x41, 0x2C])
    }

    @Test("a block's header: track, signed relative time, keyframe and lacing flags")
    func blockHeader() throws {
        let key = try #require(BlockHeader(([0x81, 0xFF, 0xFE, 0x80, 9, 9] as [UInt8])[...]))
        #expect(key.track == 1 && key.trackLength == 1 && key.length == 4)
        #expect(key.relativeTime == -2 && key.isKeyframe && !key.isLaced)
        let laced = try #require(BlockHeader((EBML.trackField(300) + [0x00, 0x10, 0x02])[...]))
        #expect(laced.track == 300 && laced.length == 5 && laced.relativeTime == 16 && !laced.isKeyframe && laced.isLaced)
        #expect(BlockHeader(([0x81, 0, 0] as [UInt8])[...]) == nil)
    }
}

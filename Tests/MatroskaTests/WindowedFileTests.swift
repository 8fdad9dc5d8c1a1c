import Foundation
@testable import Matroska
import MP4
import Testing

/// ``WindowedFile`` over a small Matroska file written here: the segment, a seek head's
/// entries, children, a block group, and reads past the end.
@Suite("Matroska windowed file")
struct WindowedFileTests {
    /// EBML header, a segment of unknown size with a SeekHead (Info at 40, Cues at 70, an
    /// entry without a position), Info, and a cluster holding a SimpleBlock and a BlockGroup.
    static func movie() -> [UInt8] {
        let header = EBML.element(EBML.ID.header, EBML.element(EBML.ID.docType, Array("matroska".utf8)))
        let seekHead = EBML.element(EBML.ID.seekHead,
            EBML.element(EBML.ID.seek, EBML.element(EBML.ID.seekID, EBML.idBytes(EBML.ID.info)) + EBML.unsigned(EBML.ID.seekPosition, 40))
                + EBML.element(EBML.ID.seek, EBML.element(EBML.ID.seekID, EBML.idBytes(EBML.ID.cues)) + EBML.unsigned(EBML.ID.seekPosition, 70))
                + EBML.element(EBML.ID.seek, EBML.element(EBML.ID.seekID, EBML.idBytes(EBML.ID.tags))))
        let info = EBML.element(EBML.ID.info, EBML.unsigned(EBML.ID.timestampScale, 1_000_000))
        let group = EBML.element(EBML.ID.blockGroup,
            EBML.element(EBML.ID.block, EBML.trackField(2) + [0, 5, 0, 7, 7]) + EBML.unsigned(EBML.ID.blockDuration, 20)
                + EBML.element(EBML.ID.referenceBlock, [0xFF]))
        let cluster = EBML.element(EBML.ID.cluster,
            EBML.unsigned(EBML.ID.clusterTimestamp, 1000) + EBML.element(EBML.ID.simpleBlock, EBML.trackField(1) + [0, 0, 0x80, 1, 2, 3]) + group)
        return header + EBML.idBytes(EBML.ID.segment) + [0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF] + seekHead + info + cluster
    }

    func withFile(_ bytes: [UInt8], _ body: (inout WindowedFile) throws -> Void) throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("matroska-\(UUID().uuidString).mkv").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        var reader = try #require(WindowedFile(path: path))
        try body(&reader)
    }

    @Test("the segment, its seek entries and its elements are found; a small window reads the same")
    func walk() throws {
        for window in [WindowedFile.defaultWindow, 16] {
            try withFile(Self.movie()) { reader in
                reader.windowSize = window
                let segmentElement = reader.segment()
                let segment = try #require(segmentElement)
                #expect(segment.size == nil)
                let seekHeadElement = reader.element(at: segment.body)
                let seekHead = try #require(seekHeadElement)
                #expect(seekHead.id == EBML.ID.seekHead)
                let entries = reader.seekEntries(of: seekHead)
                #expect(entries.map(\.target) == [EBML.ID.info, EBML.ID.cues])
                #expect(entries.map(\.position) == [40, 70])
                let infoElement = reader.element(at: try #require(seekHead.end))
                let info = try #require(infoElement)
                let infoChildren = reader.children(of: info)
                let scale = try #require(infoChildren.first)
                let scaleValue = reader.unsigned(scale)
                #expect(scaleValue == 1_000_000)
                let clusterElement = reader.element(at: try #require(info.end))
                let cluster = try #require(clusterElement)
                let items = reader.children(of: cluster)
                #expect(items.map(\.id) == [EBML.ID.clusterTimestamp, EBML.ID.simpleBlock, EBML.ID.blockGroup])
                let simpleHeader = reader.blockHeader(at: items[1].body, end: try #require(items[1].end))
                let simple = try #require(simpleHeader)
                #expect(simple.track == 1 && simple.isKeyframe && simple.relativeTime == 0)
                let group = reader.blockGroup(items[2])
                #expect(group.duration == 20 && group.referenced)
                let block = try #require(group.block)
                let groupHeader = reader.blockHeader(at: block.body, end: try #require(block.end))
                let head = try #require(groupHeader)
                #expect(head.track == 2 && head.relativeTime == 5)
                let past = reader.element(at: try #require(cluster.end))
                #expect(past == nil)
                let size = reader.size
                let tail = reader.bytes(at: size - 2, count: 10)
                let past2 = reader.bytes(at: size, count: 10)
                #expect(tail.count == 2)
                #expect(past2.isEmpty)
            }
        }
    }

    @Test("children stop where the file ends inside a child's header (sizes are checked against the parent's, not the file's)")
    func torn() throws {
        let movie = Self.movie()
        // The block group is 16 bytes: one byte of its ID is left.
        try withFile(Array(movie.dropLast(15))) { reader in
            let segmentElement = reader.segment()
            let segment = try #require(segmentElement)
            let seekHeadElement = reader.element(at: segment.body)
            let seekHead = try #require(seekHeadElement)
            let infoElement = reader.element(at: try #require(seekHead.end))
            let info = try #require(infoElement)
            let clusterElement = reader.element(at: try #require(info.end))
            let cluster = try #require(clusterElement)
            let ids = reader.children(of: cluster).map(\.id)
            #expect(ids == [EBML.ID.clusterTimestamp, EBML.ID.simpleBlock])
        }
    }

    @Test("a file that does not start with an EBML header has no segment")
    func notMatroska() throws {
        try withFile(Array("not a movie at all".utf8)) { reader in
            let segment = reader.segment()
            #expect(segment == nil)
        }
    }
}

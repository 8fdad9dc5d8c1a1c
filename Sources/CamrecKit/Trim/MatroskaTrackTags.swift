#if canImport(Glibc)
import Glibc
#endif
import MP4

/// The per-track `Tag` elements matroskamux 1.22 writes at the end of a file from a
/// stream's title tag: it serialises the title as GStreamer's value syntax (`"Main\ sound"`,
/// quotes and escapes included), and players read that `TITLE` over the track's name. The
/// name is in the track header (``MatroskaTrackLabels``), so each `Tag` that targets a
/// track is blanked out in place with a Void element of the same size: nothing moves.
enum MatroskaTrackTags {
    enum ID {
        static let tags: UInt32 = 0x1254_C367
        static let tag: UInt32 = 0x7373
        static let targets: UInt32 = 0x63C0
        static let targetTrackUID: UInt32 = 0x63C5
    }

    /// Blanks out the track-targeted tags of the Matroska file at `path`, found through
    /// its seek head; does nothing when it has no `Tags` element.
    static func blankTrackTags(in path: String) throws(CamrecError) {
        guard let tags = tagsElement(path: path), let blanked = blankingTrackTags(tags.bytes), blanked != tags.bytes else {
            return
        }
        let descriptor = open(path, O_RDWR | O_CLOEXEC)
        guard descriptor >= 0 else { throw .failed("cannot reopen \(path) to correct its tags") }
        defer { close(descriptor) }
        let written = blanked.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, off_t(tags.offset)) }
        guard written == blanked.count else { throw .failed("cannot correct the tags of \(path)") }
    }

    /// The whole `Tags` element `bytes` with each `Tag` whose targets name a track made a
    /// Void of the same size; nil when it is not a whole `Tags` element.
    static func blankingTrackTags(_ bytes: [UInt8]) -> [UInt8]? {
        guard let top = EBML.element(in: bytes[...], at: 0), top.id == ID.tags,
              let children = MatroskaTrackLabels.children(of: bytes, in: Int(top.body)..<bytes.count)
        else { return nil }
        var result = bytes
        for tag in children where tag.id == ID.tag {
            guard let fields = MatroskaTrackLabels.children(of: bytes, in: tag.body),
                  let targets = fields.first(where: { $0.id == ID.targets }),
                  let inside = MatroskaTrackLabels.children(of: bytes, in: targets.body),
                  inside.contains(where: { $0.id == ID.targetTrackUID }),
                  let void = EBML.void(total: tag.range.count)
            else { continue }
            result.replaceSubrange(tag.range, with: void)
        }
        return result
    }

    /// The `Tags` element of the file at `path` (offset and bytes), where its seek head says.
    static func tagsElement(path: String) -> (offset: UInt64, bytes: [UInt8])? {
        guard let file = try? SampleFile(path: path) else { return nil }
        var reader = WindowedFile(file: file)
        guard let header = reader.element(at: 0), header.id == EBML.ID.header, let headerEnd = header.end,
              let segment = reader.element(at: headerEnd), segment.id == EBML.ID.segment,
              let seekHead = reader.element(at: segment.body), seekHead.id == EBML.ID.seekHead, let end = seekHead.end,
              end - seekHead.start < 1 << 16
        else { return nil }
        let bytes = Array(reader.bytes(at: seekHead.start, count: Int(end - seekHead.start)))
        let tagsID = EBML.idBytes(ID.tags)
        guard let entries = MatroskaTrackLabels.children(of: bytes, in: Int(seekHead.body - seekHead.start)..<bytes.count)
        else { return nil }
        for entry in entries where entry.id == EBML.ID.seek {
            guard let fields = MatroskaTrackLabels.children(of: bytes, in: entry.body),
                  let id = fields.first(where: { $0.id == EBML.ID.seekID }), Array(bytes[id.body]) == tagsID,
                  let position = fields.first(where: { $0.id == EBML.ID.seekPosition }), position.body.count <= 8
            else { continue }
            let offset = segment.body + bytes[position.body].reduce(0) { $0 << 8 | UInt64($1) }
            guard let tags = reader.element(at: offset), tags.id == ID.tags, let tagsEnd = tags.end,
                  tagsEnd - tags.start < 1 << 20
            else { return nil }
            let body = Array(reader.bytes(at: tags.start, count: Int(tagsEnd - tags.start)))
            return body.count == Int(tagsEnd - tags.start) ? (tags.start, body) : nil
        }
        return nil
    }
}

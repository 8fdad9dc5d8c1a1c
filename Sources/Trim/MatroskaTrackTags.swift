import CamrecCore
#if canImport(Glibc)
import Glibc
#endif
import Matroska

/// The per-track `Tag` elements matroskamux 1.22 writes at the end of a file from a
/// stream's title tag: it serialises the title as GStreamer's value syntax (`"Main\ sound"`,
/// quotes and escapes included), and players read that `TITLE` over the track's name. The
/// name is in the track header (``MatroskaTrackLabels``), so each `Tag` that targets a
/// track is blanked out in place with a Void element of the same size: nothing moves.
enum MatroskaTrackTags {
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
        guard let top = EBML.element(in: bytes[...], at: 0), top.id == EBML.ID.tags,
              let children = EBML.children(of: bytes, in: Int(top.body)..<bytes.count)
        else { return nil }
        var result = bytes
        for tag in children where tag.id == EBML.ID.tag {
            guard let fields = EBML.children(of: bytes, in: tag.body),
                  let targets = fields.first(where: { $0.id == EBML.ID.targets }),
                  let inside = EBML.children(of: bytes, in: targets.body),
                  inside.contains(where: { $0.id == EBML.ID.targetTrackUID }),
                  let void = EBML.void(total: tag.range.count)
            else { continue }
            result.replaceSubrange(tag.range, with: void)
        }
        return result
    }

    /// The `Tags` element of the file at `path` (offset and bytes), where its seek head says.
    static func tagsElement(path: String) -> (offset: UInt64, bytes: [UInt8])? {
        guard var reader = WindowedFile(path: path), let segment = reader.segment(),
              let seekHead = reader.element(at: segment.body), seekHead.id == EBML.ID.seekHead, let end = seekHead.end,
              end - seekHead.start < 1 << 16
        else { return nil }
        guard let position = reader.seekEntries(of: seekHead).first(where: { $0.target == EBML.ID.tags })?.position
        else { return nil }
        let offset = segment.body + position
        guard let tags = reader.element(at: offset), tags.id == EBML.ID.tags, let tagsEnd = tags.end,
              tagsEnd - tags.start < 1 << 20
        else { return nil }
        let body = Array(reader.bytes(at: tags.start, count: Int(tagsEnd - tags.start)))
        return body.count == Int(tagsEnd - tags.start) ? (tags.start, body) : nil
    }
}

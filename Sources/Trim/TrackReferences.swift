import CamrecCore
import MP4
#if canImport(Glibc)
import Glibc
#endif

/// Track references (`tref`) of an MP4/MOV movie: a video track names its timecode track
/// (`tmcd`), a track its chapter track (`chap`), and so on, by track id. camrec's MP4
/// writer numbers the output's tracks anew, so trim reads the input's references, maps
/// them to the output's ids (dropping references to tracks that are not kept) and adds
/// them to the written movie box, in place, before the file is published.
enum TrackReferences {
    /// One reference type of a track and the ids it names.
    struct Reference: Equatable {
        var type: String
        var ids: [UInt32]
    }

    /// The references of every track of `path`'s movie box that has any, by track id.
    static func read(path: String) -> [UInt32: [Reference]] {
        guard let file = try? SampleFile(path: path), let moov = (try? Box.topLevel(in: file))?.first("moov"),
              moov.end - moov.start < 64 << 20,
              let bytes = try? file.read(offset: UInt64(moov.start), count: moov.end - moov.start)
        else { return [:] }
        return read(moov: bytes)
    }

    /// The references in a whole `moov` box, by track id.
    static func read(moov bytes: [UInt8]) -> [UInt32: [Reference]] {
        guard let top = Box.children(of: bytes, in: 0..<bytes.count)?.first("moov"),
              let tracks = Box.children(of: bytes, in: top.payload) else { return [:] }
        var result: [UInt32: [Reference]] = [:]
        for trak in tracks where trak.type == "trak" {
            guard let parts = Box.children(of: bytes, in: trak.payload), let tkhd = parts.first("tkhd"),
                  let tref = parts.first("tref"), let entries = Box.children(of: bytes, in: tref.payload),
                  tkhd.payloadStart < tkhd.end
            else { continue }
            let idAt = tkhd.payloadStart + (bytes[tkhd.payloadStart] == 1 ? 20 : 12)
            guard idAt + 4 <= tkhd.end else { continue }
            let id = word(bytes, idAt)
            result[id] = entries.map { entry in
                let ids = stride(from: entry.payloadStart, to: entry.end - 3, by: 4).map { word(bytes, $0) }
                return Reference(type: entry.type, ids: ids)
            }
        }
        return result
    }

    /// A `tref` box of `references` with ids mapped by `outputID` (input id → output id);
    /// references to tracks without an output id are left out; nil when none is left.
    static func box(_ references: [Reference], outputID: [UInt32: UInt32]) -> [UInt8]? {
        var children: [UInt8] = []
        for reference in references {
            let ids = reference.ids.compactMap { outputID[$0] }
            guard !ids.isEmpty else { continue }
            children += header(size: 8 + 4 * ids.count, type: reference.type)
            for id in ids { children += bytes(of: id) }
        }
        return children.isEmpty ? nil : header(size: 8 + children.count, type: "tref") + children
    }

    /// Puts `boxes[i]` (a whole `tref` box) into the `i`-th track of the movie box of
    /// `path`, after its `tkhd`. The movie box must be the file's last box (as camrec's
    /// writer puts it), so that nothing after it moves.
    static func insert(_ boxes: [Int: [UInt8]], into path: String) throws {
        guard !boxes.isEmpty else { return }
        let file = try SampleFile(path: path)
        guard let moov = try Box.topLevel(in: file).last, moov.type == "moov", moov.payloadStart - moov.start == 8
        else { throw CamrecError.failed("the written movie box is not where it was written") }
        let bytes = try file.read(offset: UInt64(moov.start), count: moov.end - moov.start)
        guard let top = Box.children(of: bytes, in: 0..<bytes.count)?.first("moov"),
              let children = Box.children(of: bytes, in: top.payload)
        else { throw CamrecError.failed("the written movie box cannot be read back") }
        var body: [UInt8] = []
        var trackIndex = 0
        for child in children {
            guard child.type == "trak" else {
                body += bytes[child.start..<child.end]
                continue
            }
            defer { trackIndex += 1 }
            guard let reference = boxes[trackIndex], child.payloadStart - child.start == 8,
                  let parts = Box.children(of: bytes, in: child.payload), let tkhd = parts.first("tkhd")
            else {
                body += bytes[child.start..<child.end]
                continue
            }
            let payload = Array(bytes[child.payloadStart..<tkhd.end]) + reference + Array(bytes[tkhd.end..<child.end])
            body += header(size: 8 + payload.count, type: "trak") + payload
        }
        let rewritten = header(size: 8 + body.count, type: "moov") + body
        let descriptor = open(path, O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw CamrecError.failed("cannot reopen \(path) to add track references") }
        defer { close(descriptor) }
        var done = 0
        while done < rewritten.count {
            let wrote = rewritten.withUnsafeBytes { buffer in
                pwrite(descriptor, buffer.baseAddress.map { $0 + done }, rewritten.count - done, off_t(moov.start + done))
            }
            if wrote < 0, errno == EINTR { continue }
            guard wrote > 0 else {
                if errno == ENOSPC || errno == EDQUOT { throw MP4Error("no space left on the device writing \(path)", isNoSpace: true) }
                throw CamrecError.failed("cannot add track references to \(path): \(String(cString: strerror(errno)))")
            }
            done += wrote
        }
    }

    private static func word(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        bytes[at..<at + 4].reduce(0) { $0 << 8 | UInt32($1) }
    }

    private static func bytes(of value: UInt32) -> [UInt8] {
        (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * UInt32($0))) }
    }

    private static func header(size: Int, type: String) -> [UInt8] {
        bytes(of: UInt32(truncatingIfNeeded: size)) + Array(type.utf8.prefix(4))
    }
}

import CamrecCore
import MP4
#if canImport(Glibc)
import Glibc
#endif

/// Chapters in an MP4 that GStreamer's `mp4mux` wrote (`--mode reencode` to MP4, or a
/// change of container to MP4): mp4mux 1.22 writes no chapters, so trim adds a Nero
/// chapter list (`moov/udta/chpl`, which ffmpeg, mpv, VLC and most players read) to the
/// written file's movie box afterwards. mp4mux writes the movie box last, after the media
/// data, so it can grow there without moving any sample.
enum NeroChapterList {
    /// The `chpl` box for `chapters` (the one Nero writer: ``MP4Chapters/neroBox(_:)``).
    static func box(_ chapters: ChapterList) -> [UInt8] {
        MP4Chapters.neroBox(chapters)
    }

    /// A whole `moov` box with `chpl` put in its `udta` (made when there is none, replacing
    /// any `chpl` there); nil when it is not a whole `moov` box with a 32-bit size.
    static func movieBox(_ moov: [UInt8], adding chpl: [UInt8]) -> [UInt8]? {
        guard let top = Box.children(of: moov, in: 0..<moov.count)?.first("moov"), top.end == moov.count,
              top.payloadStart == 8, let children = Box.children(of: moov, in: top.payload)
        else { return nil }
        var body: [UInt8] = []
        var placed = false
        for child in children {
            guard child.type == "udta", !placed, child.payloadStart == child.start + 8,
                  let inside = Box.children(of: moov, in: child.payload)
            else {
                body += moov[child.start..<child.end]
                continue
            }
            var udta: [UInt8] = []
            for box in inside where box.type != "chpl" { udta += moov[box.start..<box.end] }
            udta += chpl
            body += boxHeader(udta.count + 8, "udta") + udta
            placed = true
        }
        if !placed { body += boxHeader(chpl.count + 8, "udta") + chpl }
        guard body.count + 8 <= Int(UInt32.max) else { return nil }
        return boxHeader(body.count + 8, "moov") + body
    }

    /// Adds `chapters` to the MP4 at `path` as a Nero list in its movie box, which must be
    /// the file's last box. Returns false, changing nothing, when it is not.
    static func add(_ chapters: ChapterList, to path: String) throws(CamrecError) -> Bool {
        guard !chapters.isEmpty else { return true }
        guard let file = try? SampleFile(path: path), let boxes = try? Box.topLevel(in: file),
              let moov = boxes.last, moov.type == "moov", UInt64(moov.end) == file.size, moov.end - moov.start < 64 << 20,
              let bytes = try? file.read(offset: UInt64(moov.start), count: moov.end - moov.start),
              let rewritten = movieBox(bytes, adding: box(chapters))
        else { return false }
        let descriptor = open(path, O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .failed("cannot reopen \(path) to add its chapters") }
        defer { close(descriptor) }
        let written = rewritten.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, off_t(moov.start)) }
        guard written == rewritten.count, ftruncate(descriptor, off_t(moov.start + rewritten.count)) == 0 else {
            throw .failed("cannot add the chapters to \(path)")
        }
        return true
    }

    private static func boxHeader(_ size: Int, _ type: String) -> [UInt8] {
        (0..<4).map { UInt8(truncatingIfNeeded: UInt32(size) >> (24 - 8 * UInt32($0))) } + Array(type.utf8)
    }
}

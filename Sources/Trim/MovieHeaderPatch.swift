import GStreamer
import MP4

/// qtdemux 1.22 takes a video track whose media lasts less than a fifth of the movie
/// header's duration for a preview image and skips it ("Track shorter than 20 % … assuming
/// preview image or something; skipping track"): an MP4 whose video starts after an initial
/// empty edit of 100 s or more (`ffmpeg -itsoffset 100 -i in.mp4 -c copy`: `mvhd` says 104 s,
/// the track's media 4 s) then has "no playable streams", while ffmpeg plays it. For such a
/// file, a probe on `filesrc`'s source pad serves qtdemux the movie header with a duration
/// of 0 (unknown): qtdemux then keeps the track and still follows its edit list (a gap to
/// 100 s, then the frames). Nothing is written to the file.
enum MovieHeaderPatch {
    /// Where `mvhd`'s duration field lies in `path` (file offset, 4 or 8 bytes) when qtdemux
    /// would skip one of its video tracks this way; nil otherwise (or when it cannot be read).
    static func durationField(path: String) -> (offset: UInt64, width: Int)? {
        guard let file = try? SampleFile(path: path), let moov = (try? Box.topLevel(in: file))?.first("moov"),
              moov.end - moov.start < 64 << 20,
              let bytes = try? file.read(offset: UInt64(moov.start), count: moov.end - moov.start),
              let top = Box.children(of: bytes, in: 0..<bytes.count)?.first("moov"),
              let children = Box.children(of: bytes, in: top.payload), children.first("mvex") == nil,
              let mvhd = children.first("mvhd"), let header = timing(bytes, mvhd), header.duration > 0
        else { return nil }
        let skipped = children.contains { trak in
            guard trak.type == "trak", let mdia = Box.children(of: bytes, in: trak.payload)?.first("mdia"),
                  let parts = Box.children(of: bytes, in: mdia.payload), let hdlr = parts.first("hdlr"),
                  hdlr.payloadStart + 12 <= hdlr.end,
                  String(decoding: bytes[hdlr.payloadStart + 8..<hdlr.payloadStart + 12], as: UTF8.self) == "vide",
                  let mdhd = parts.first("mdhd"), let media = timing(bytes, mdhd), media.duration > 0
            else { return false }
            // qtdemux's test, in its integers: track / movie duration below 2/10.
            let movie = media.timescale.multipliedReportingOverflow(by: header.duration)
            let track = header.timescale.multipliedReportingOverflow(by: media.duration)
            guard !movie.overflow, !track.overflow, movie.partialValue > 0 else { return false }
            return track.partialValue.multipliedReportingOverflow(by: 10).partialValue / movie.partialValue < 2
        }
        guard skipped else { return nil }
        let wide = bytes[mvhd.payloadStart] == 1
        return (UInt64(moov.start + mvhd.payloadStart + (wide ? 24 : 16)), wide ? 8 : 4)
    }

    /// Timescale and duration of an `mvhd` or `mdhd` box (their layouts agree up to there).
    private static func timing(_ bytes: [UInt8], _ box: Box) -> (timescale: UInt64, duration: UInt64)? {
        let wide = box.payloadStart < box.end && bytes[box.payloadStart] == 1
        let at = box.payloadStart + (wide ? 20 : 12)
        let width = wide ? 8 : 4
        guard at + 4 + width <= box.end else { return nil }
        let timescale = bytes[at..<at + 4].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let duration = bytes[at + 4..<at + 4 + width].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return (timescale, wide && duration == .max || !wide && duration == 0xFFFF_FFFF ? 0 : duration)
    }

    /// Puts the probe on `source` (a `filesrc` reading `path`) when the file needs it; the
    /// token keeps it (nil: nothing to do). Buffers that hold none of the field pass as they are.
    static func attach(to source: Element, path: String) -> ProbeToken? {
        guard let field = durationField(path: path), let pad = try? source.staticPad("src") else { return nil }
        let fieldRange = field.offset..<field.offset + UInt64(field.width)
        return pad.addProbe([.buffer]) { info in
            guard let buffer = info.buffer, let offsets = buffer.offsets, offsets.overlaps(fieldRange),
                  var copy = buffer.writableCopy()
            else { return .pass }
            _ = copy.withMutableBytes { bytes in
                for offset in max(offsets.lowerBound, fieldRange.lowerBound)..<min(offsets.upperBound, fieldRange.upperBound) {
                    let index = Int(offset - offsets.lowerBound)
                    if index < bytes.count { bytes[index] = 0 }
                }
            }
            return .replace(copy.finished())
        }
    }
}

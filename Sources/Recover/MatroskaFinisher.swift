import CamrecCore
import Matroska
#if canImport(Glibc)
import Glibc
#endif

/// Finishes a Matroska file that was never finalised, as matroskamux would have on a
/// clean stop, in a copy: the whole blocks are copied byte for byte (in the kernel), then
/// the sizes, seek entries and duration that were left as placeholders are filled in and
/// an index (`Cues`, one entry per cluster at its first video keyframe) is appended.
///
/// Why not a remux through GStreamer (matroskademux ! matroskamux)? The copy keeps every
/// byte of every block, every track, tag and codec setting exactly as recorded, whatever
/// wrote the file; it needs no demuxer to cope with a file that ends mid-block, and it
/// takes as long as copying the file. Only a few fields are written, each in its place.
struct MatroskaFinisher {
    let layout: MatroskaLayout

    /// Writes the finished movie from `sourcePath` to the file open as `output` (empty).
    func write(from sourcePath: String, to output: Int32, outputPath: String) throws(CamrecError) {
        let keptEnd = layout.keptEnd
        try copy(from: sourcePath, count: keptEnd, to: output, outputPath: outputPath)
        let segmentBody = layout.segment.body
        let index = cues()
        let cuesPosition = keptEnd - segmentBody
        var patches: [(offset: UInt64, bytes: [UInt8])] = []
        for cluster in layout.clusters where cluster.isTorn || cluster.element.size == nil {
            let size = cluster.keptEnd - cluster.element.body
            if let field = EBML.sizeField(size, length: cluster.element.sizeLength) {
                patches.append((cluster.element.sizeOffset, field))
            }
        }
        let outputEnd = keptEnd + UInt64(index.count)
        if let field = EBML.sizeField(outputEnd - segmentBody, length: layout.segment.sizeLength) {
            patches.append((layout.segment.sizeOffset, field))
        }
        if let duration = layout.durationField, duration.end.map({ $0 <= keptEnd }) ?? false {
            let value = max(layout.endTime, 0)
            let bits = duration.size == 4 ? UInt64(Float(value).bitPattern) : value.bitPattern
            patches.append((duration.body, EBML.bigEndian(bits, length: duration.size == 4 ? 4 : 8)))
        }
        patches += seekPatches(cuesPosition: index.isEmpty ? nil : cuesPosition)
        for patch in patches {
            try write(patch.bytes, at: patch.offset, to: output, path: outputPath)
        }
        try write(index, at: keptEnd, to: output, path: outputPath)
    }

    /// The index: one cue point per cluster, at its first keyframe of the main track.
    func cues() -> [UInt8] {
        guard !layout.cues.isEmpty else { return [] }
        var body: [UInt8] = []
        for cue in layout.cues {
            let positions = EBML.unsigned(EBML.ID.cueTrack, cue.track)
                + EBML.unsigned(EBML.ID.cueClusterPosition, cue.clusterStart - layout.segment.body)
            body += EBML.element(EBML.ID.cuePoint,
                                 EBML.unsigned(EBML.ID.cueTime, UInt64(max(cue.time, 0)))
                                     + EBML.element(EBML.ID.cueTrackPositions, positions))
        }
        return EBML.element(EBML.ID.cues, body)
    }

    /// Each seek entry in the kept part points at its element, or becomes a Void when that
    /// element is not in the finished file (matroskamux's placeholders for chapters, tags…).
    private func seekPatches(cuesPosition: UInt64?) -> [(offset: UInt64, bytes: [UInt8])] {
        var patches: [(offset: UInt64, bytes: [UInt8])] = []
        for seek in layout.seeks where seek.end <= layout.keptEnd {
            var target: UInt64?
            if seek.target == EBML.ID.cues {
                target = cuesPosition
            } else if let id = seek.target, let element = layout.topLevel.first(where: { $0.id == id && $0.start < layout.keptEnd }) {
                target = element.start - layout.segment.body
            }
            if let target, let field = seek.position, let size = field.size, (1...8).contains(size),
               size == 8 || target < UInt64(1) << (8 * size) {
                patches.append((field.body, EBML.bigEndian(target, length: Int(size))))
            } else if let void = EBML.void(total: Int(seek.end - seek.start)) {
                patches.append((seek.start, void))
            }
        }
        return patches
    }

    /// Copies the first `count` bytes of `sourcePath` in the kernel.
    private func copy(from sourcePath: String, count: UInt64, to output: Int32, outputPath: String) throws(CamrecError) {
        let input = open(sourcePath, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else {
            throw CamrecError(.invalidInput, "cannot read \(sourcePath): \(systemMessage(errno))")
        }
        defer { close(input) }
        var offset: off_t = 0
        var left = count
        while left > 0 {
            let copied = sendfile(output, input, &offset, Int(min(left, 1 << 30)))
            if copied < 0, errno == EINTR { continue }
            guard copied > 0 else { throw failure(copied == 0 ? 0 : errno, path: outputPath) }
            left -= UInt64(copied)
        }
    }

    private func write(_ bytes: [UInt8], at offset: UInt64, to output: Int32, path: String) throws(CamrecError) {
        var done = 0
        while done < bytes.count {
            let wrote = bytes.withUnsafeBytes { buffer in
                pwrite(output, buffer.baseAddress.map { $0 + done }, bytes.count - done, off_t(offset) + off_t(done))
            }
            if wrote < 0, errno == EINTR { continue }
            guard wrote > 0 else { throw failure(errno, path: path) }
            done += wrote
        }
    }

    private func failure(_ code: Int32, path: String) -> CamrecError {
        if code == ENOSPC || code == EDQUOT {
            return CamrecError(.diskFull, "no space left on the device writing \(path)")
        }
        if code == 0 { return CamrecError(.failure, "the input ended early while copying it to \(path)") }
        return CamrecError(.cannotCreateOutput, "cannot write \(path): \(systemMessage(code))")
    }
}

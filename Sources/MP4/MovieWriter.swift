#if canImport(Glibc)
import Glibc
#endif

/// Writes a plain ISO base media movie: `ftyp`, one `mdat` with the samples in chunks
/// interleaved by time, then `moov`. Samples that come from the source file are copied
/// in the kernel (`sendfile`) in runs as long as the source keeps them contiguous.
public enum MovieWriter {
    /// Largest chunk: a second of media or 4 MB, whichever comes first.
    static let chunkBytes = 4 << 20

    /// Writes `tracks` to `path` (created or truncated), reading file samples from `sourcePath`.
    ///
    /// Samples whose source is ``SampleSource/pending`` are filled in by `complete` once every
    /// other chunk is written (so a caller can copy the bulk of a movie while it still encodes
    /// a few samples); their chunks follow the others in `mdat`. `complete` must replace each
    /// pending source and may change a track's sample entry, sync flags and nothing else.
    public static func write(
        path: String, sourcePath: String, fileType: [UInt8]?, movieTimescale: UInt32, tracks: [OutputTrack],
        completing complete: (inout [OutputTrack]) throws -> Void = { _ in }
    ) throws {
        let source = try SampleFile(path: sourcePath)
        let output = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard output >= 0 else { throw MP4Error("cannot write \(path): \(String(cString: strerror(errno)))") }
        defer { Glibc.close(output) }
        var sink = OutputFile(descriptor: output, path: path)
        var head = ByteWriter()
        head.append(fileType ?? defaultFileType)
        let mdatStart = UInt64(head.bytes.count)
        head.uint32(1)
        head.fourCC("mdat")
        head.uint64(0)
        try sink.write(head.bytes)
        let layout = ChunkLayout(tracks: tracks)
        var offsets: [Int: [Int: UInt64]] = [:]
        func writeChunks(_ tracks: [OutputTrack], pending: Bool) throws(MP4Error) {
            for chunk in layout.ordered where chunk.isPending == pending {
                offsets[chunk.track, default: [:]][chunk.samples.lowerBound] = sink.position
                for run in layout.runs(of: chunk, in: tracks[chunk.track]) {
                    switch run {
                    case .file(let offset, let size): try sink.copy(from: source, offset: offset, count: size)
                    case .bytes(let bytes): try sink.write(bytes)
                    }
                }
            }
        }
        try writeChunks(tracks, pending: false)
        var completed = tracks
        try complete(&completed)
        guard completed.count == tracks.count,
              zip(completed, tracks).allSatisfy({ $0.samples.count == $1.samples.count }),
              !completed.contains(where: { $0.samples.contains { $0.source == .pending } })
        else { throw MP4Error("the pending samples were not all filled in") }
        try writeChunks(completed, pending: true)
        var size = ByteWriter()
        size.uint64(sink.position - mdatStart)
        try sink.write(size.bytes, at: mdatStart + 8)
        let chunkOffsets = completed.indices.map { track in
            (offsets[track] ?? [:]).sorted { $0.key < $1.key }.map(\.value)
        }
        let moov = MovieBox(
            movieTimescale: movieTimescale, tracks: completed, chunkOffsets: chunkOffsets,
            samplesPerChunk: layout.samplesPerChunk
        )
        try sink.write(moov.bytes())
    }

    static let defaultFileType: [UInt8] = {
        var writer = ByteWriter()
        writer.box("ftyp") { box in
            box.fourCC("isom")
            box.uint32(0x200)
            for brand in ["isom", "iso2", "avc1", "mp41"] { box.fourCC(brand) }
        }
        return writer.bytes
    }()
}

/// The output file, written sequentially (its file position is ``position``).
struct OutputFile {
    let descriptor: Int32
    let path: String
    private(set) var position: UInt64 = 0

    init(descriptor: Int32, path: String) {
        self.descriptor = descriptor
        self.path = path
    }

    /// Appends `bytes`.
    mutating func write(_ bytes: [UInt8]) throws(MP4Error) {
        var done = 0
        while done < bytes.count {
            let wrote = bytes.withUnsafeBytes { buffer in
                Glibc.write(descriptor, buffer.baseAddress.map { $0 + done }, bytes.count - done)
            }
            if wrote < 0, errno == EINTR { continue }
            guard wrote > 0 else { throw failure() }
            done += wrote
        }
        position += UInt64(bytes.count)
    }

    /// Overwrites bytes already written, leaving the position alone.
    func write(_ bytes: [UInt8], at offset: UInt64) throws(MP4Error) {
        var done = 0
        while done < bytes.count {
            let wrote = bytes.withUnsafeBytes { buffer in
                pwrite(descriptor, buffer.baseAddress.map { $0 + done }, bytes.count - done, off_t(offset) + off_t(done))
            }
            if wrote < 0, errno == EINTR { continue }
            guard wrote > 0 else { throw failure() }
            done += wrote
        }
    }

    /// Appends `count` bytes of `source` from `offset`, copied in the kernel (`sendfile`).
    mutating func copy(from source: SampleFile, offset: UInt64, count: Int) throws(MP4Error) {
        var from = off_t(offset)
        var left = count
        while left > 0 {
            let copied = sendfile(descriptor, source.descriptor, &from, left)
            if copied < 0, errno == EINTR { continue }
            if copied < 0, [EINVAL, ENOSYS].contains(errno) {
                // Not supported between these files: read and write instead.
                position += UInt64(count - left)
                try write(try source.read(offset: UInt64(from), count: left))
                return
            }
            guard copied > 0 else { throw copied == 0 ? MP4Error("the source file ended early") : failure() }
            left -= copied
        }
        position += UInt64(count)
    }

    private func failure() -> MP4Error {
        let code = errno
        if code == ENOSPC || code == EDQUOT {
            return MP4Error("no space left on the device writing \(path)", isNoSpace: true)
        }
        return MP4Error("cannot write \(path): \(String(cString: strerror(code)))")
    }
}

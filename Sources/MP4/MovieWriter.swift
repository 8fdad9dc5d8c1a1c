#if canImport(Glibc)
import Glibc
#endif

/// Writes a plain ISO base media movie: `ftyp`, one `mdat`, then `moov`. Samples from the
/// source file keep its order and interleaving and are copied in the kernel (`sendfile`)
/// in long runs (see ``SampleLayout``); samples in memory follow them.
public enum MovieWriter {
    /// Writes `tracks` to `path` (created or truncated), reading file samples from `sourcePath`,
    /// with `metadata`'s dates and user data (none by default).
    ///
    /// Samples whose source is ``SampleSource/pending`` are filled in by `complete` once the
    /// file samples are copied (so a caller can copy the bulk of a movie while it still
    /// encodes a few samples); they follow the file samples in `mdat`. `complete` must replace each
    /// pending source and may change a track's sample entry, sync flags and nothing else.
    public static func write(
        path: String, sourcePath: String, fileType: [UInt8]?, movieTimescale: UInt32, tracks: [OutputTrack],
        metadata: MovieMetadata = MovieMetadata(), completing complete: (inout [OutputTrack]) throws -> Void = { _ in }
    ) throws {
        try write(
            path: path, source: try SampleFile(path: sourcePath), fileType: fileType, movieTimescale: movieTimescale,
            tracks: tracks, metadata: metadata, completing: complete
        )
    }

    /// Writes `tracks` to `path` as ``write(path:sourcePath:fileType:movieTimescale:tracks:metadata:completing:)``
    /// does, reading file samples from `source` (one file, or several read as one).
    public static func write(
        path: String, source: SampleFile, fileType: [UInt8]?, movieTimescale: UInt32, tracks: [OutputTrack],
        metadata: MovieMetadata = MovieMetadata(), completing complete: (inout [OutputTrack]) throws -> Void = { _ in }
    ) throws {
        let output = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
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
        let layout = SampleLayout(tracks: tracks)
        var runStarts: [UInt64] = []
        for run in layout.runs {
            runStarts.append(sink.position)
            try sink.copy(from: source, offset: run.sourceOffset, count: Int(run.size))
        }
        var completed = tracks
        try complete(&completed)
        guard completed.count == tracks.count,
              zip(completed, tracks).allSatisfy({ $0.samples.count == $1.samples.count }),
              !completed.contains(where: { $0.samples.contains { $0.source == .pending } })
        else { throw MP4Error("the pending samples were not all filled in") }
        var chunkOffsets: [[UInt64]] = []
        var samplesPerChunk: [[Int]] = []
        for (trackIndex, track) in completed.enumerated() {
            var offsets: [UInt64] = []
            offsets.reserveCapacity(track.samples.count)
            for (sampleIndex, sample) in track.samples.enumerated() {
                if let place = layout.placement[trackIndex][sampleIndex] {
                    offsets.append(runStarts[place.run] + place.delta)
                } else if case .bytes(let bytes) = sample.source {
                    offsets.append(sink.position)
                    try sink.write(bytes)
                } else {
                    throw MP4Error("a sample moved from the file to memory while writing")
                }
            }
            let chunks = SampleLayout.chunks(offsets: offsets, sizes: track.samples.map(\.source.size))
            chunkOffsets.append(chunks.offsets)
            samplesPerChunk.append(chunks.samplesPerChunk)
        }
        var size = ByteWriter()
        size.uint64(sink.position - mdatStart)
        try sink.write(size.bytes, at: mdatStart + 8)
        let moov = MovieBox(
            movieTimescale: movieTimescale, tracks: completed, chunkOffsets: chunkOffsets,
            samplesPerChunk: samplesPerChunk, metadata: metadata
        )
        try sink.write(moov.bytes())
    }

    /// The `ftyp` of a QuickTime movie, for sources that have none.
    public static let quickTimeFileType: [UInt8] = {
        var writer = ByteWriter()
        writer.box("ftyp") { box in
            box.fourCC("qt  ")
            box.uint32(0x200)
            box.fourCC("qt  ")
        }
        return writer.bytes
    }()

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

    /// Appends `count` bytes of `source` from `offset`, copied in the kernel (`sendfile`),
    /// from each of its files the range lies in.
    mutating func copy(from source: SampleFile, offset: UInt64, count: Int) throws(MP4Error) {
        guard let pieces = source.pieces(offset: offset, count: count) else {
            throw MP4Error("the source file ended early")
        }
        for piece in pieces {
            try copy(from: source, descriptor: piece.descriptor, offset: piece.offset, count: piece.count)
        }
    }

    /// Appends `count` bytes of one file of `source` from `offset` (in that file).
    private mutating func copy(from source: SampleFile, descriptor input: Int32, offset: UInt64, count: Int) throws(MP4Error) {
        var from = off_t(offset)
        var left = count
        while left > 0 {
            let copied = sendfile(descriptor, input, &from, left)
            if copied < 0, errno == EINTR { continue }
            if copied < 0, [EINVAL, ENOSYS].contains(errno) {
                // Not supported between these files: read and write instead, 4 MB at a time.
                position += UInt64(count - left)
                while left > 0 {
                    let piece = min(left, 4 << 20)
                    var bytes = [UInt8](repeating: 0, count: piece)
                    var got = 0
                    while got < piece {
                        let read = bytes.withUnsafeMutableBytes { buffer in
                            pread(input, buffer.baseAddress.map { $0 + got }, piece - got, from + off_t(got))
                        }
                        if read < 0, errno == EINTR { continue }
                        guard read > 0 else { throw MP4Error("the source file ended early") }
                        got += read
                    }
                    try write(bytes)
                    from += off_t(piece)
                    left -= piece
                }
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

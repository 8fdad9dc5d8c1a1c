#if canImport(Glibc)
import Glibc
#endif

/// A file read with `pread`: where samples come from. Or several files read as one, one
/// after the other (``init(concatenating:)``): the samples of a series of movies, each
/// file's offsets shifted by the sizes of the files before it (``base(ofPart:)``).
public final class SampleFile {
    /// One file of it: its descriptor, and where its first byte is in the whole.
    struct Part {
        let descriptor: Int32
        let base: UInt64
        let size: UInt64
    }

    let parts: [Part]
    /// The size in bytes (of all the files together).
    public let size: UInt64

    /// The descriptor of a single file (the first part).
    var descriptor: Int32 { parts[0].descriptor }

    /// Opens `path` for reading.
    public convenience init(path: String) throws(MP4Error) {
        try self.init(concatenating: [path])
    }

    /// Opens `paths` (at least one) for reading as one file, in their order.
    public init(concatenating paths: [String]) throws(MP4Error) {
        guard !paths.isEmpty else { throw MP4Error("no file to read") }
        var parts: [Part] = []
        var base: UInt64 = 0
        for path in paths {
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                let reason = String(cString: strerror(errno))
                for part in parts { Glibc.close(part.descriptor) }
                throw MP4Error("cannot open \(path): \(reason)")
            }
            var info = stat()
            guard fstat(descriptor, &info) == 0 else {
                Glibc.close(descriptor)
                for part in parts { Glibc.close(part.descriptor) }
                throw MP4Error("cannot read \(path)")
            }
            parts.append(Part(descriptor: descriptor, base: base, size: UInt64(info.st_size)))
            base += UInt64(info.st_size)
        }
        self.parts = parts
        size = base
    }

    /// Where the file `index` (of those given to ``init(concatenating:)``) starts in the whole.
    public func base(ofPart index: Int) -> UInt64 { parts[index].base }

    /// The pieces of the byte range `offset..<offset + count`, each within one file:
    /// (descriptor, offset in that file, count); nil when the range runs past the end.
    func pieces(offset: UInt64, count: Int) -> [(descriptor: Int32, offset: UInt64, count: Int)]? {
        guard offset <= size, UInt64(count) <= size - offset else { return nil }
        var pieces: [(descriptor: Int32, offset: UInt64, count: Int)] = []
        var at = offset
        var left = UInt64(count)
        // The last part starting at or before `at`.
        var index = parts.count == 1 ? 0 : (parts.lastIndex { $0.base <= at } ?? 0)
        while left > 0, index < parts.count {
            let part = parts[index]
            let take = min(left, part.base + part.size - at)
            if take > 0 { pieces.append((part.descriptor, at - part.base, Int(take))) }
            at += take
            left -= take
            index += 1
        }
        return left == 0 ? pieces : nil
    }

    /// `count` bytes at `offset`; throws on a short read.
    public func read(offset: UInt64, count: Int) throws(MP4Error) -> [UInt8] {
        guard let pieces = pieces(offset: offset, count: count) else {
            throw MP4Error("cannot read \(count) bytes at \(offset)")
        }
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        for piece in pieces {
            var got = 0
            while got < piece.count {
                let read = bytes.withUnsafeMutableBytes { buffer in
                    pread(piece.descriptor, buffer.baseAddress.map { $0 + done + got }, piece.count - got, off_t(piece.offset) + off_t(got))
                }
                if read < 0, errno == EINTR { continue }
                guard read > 0 else { throw MP4Error("cannot read \(count) bytes at \(offset)") }
                got += read
            }
            done += got
        }
        return bytes
    }

    deinit {
        for part in parts { Glibc.close(part.descriptor) }
    }
}

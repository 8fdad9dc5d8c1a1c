/// The top-level boxes of a file and where sample data may lie: the payloads of its whole
/// `mdat` boxes, and of a torn last `mdat` up to the end of the file.
struct FileLayout {
    /// A byte range samples may lie in, and where the box holding it ends.
    struct DataRange {
        var start: UInt64
        var end: UInt64
        /// The end of the whole box (the file's end for a torn one).
        var boxEnd: UInt64
    }

    let file: SampleFile
    let boxes: [Box]
    /// Sorted by start, not overlapping.
    let data: [DataRange]
    /// The type of the box the file ends inside, if any.
    let tornBox: String?

    init(file: SampleFile) throws(MP4Error) {
        try self.init(file: file, boxes: try Box.topLevel(in: file))
    }

    /// The layout of `boxes`, laid one after another from the file's start.
    init(file: SampleFile, boxes: [Box]) throws(MP4Error) {
        self.file = file
        self.boxes = boxes
        var data = boxes.filter { $0.type == "mdat" }.map {
            DataRange(start: UInt64($0.payloadStart), end: UInt64($0.end), boxEnd: UInt64($0.end))
        }
        let walked = UInt64(boxes.last?.end ?? 0)
        var torn: String?
        if walked + 8 <= file.size, let header = try? file.read(offset: walked, count: Int(min(16, file.size - walked))) {
            var reader = ByteReader(header)
            let size = reader.uint32()
            torn = reader.fourCC()
            if torn == "mdat" {
                let headerSize: UInt64 = size == 1 ? 16 : 8
                if walked + headerSize <= file.size {
                    data.append(DataRange(start: walked + headerSize, end: file.size, boxEnd: file.size))
                }
            }
        } else if walked < file.size {
            torn = ""
        }
        self.data = data
        tornBox = torn
    }

    /// The data range holding all of `size` bytes at `offset`, if any.
    func range(holding offset: UInt64, size: UInt64) -> DataRange? {
        var low = 0
        var high = data.count
        while low < high {
            let middle = (low + high) / 2
            if data[middle].end <= offset { low = middle + 1 } else { high = middle }
        }
        guard low < data.count, data[low].start <= offset, size <= data[low].end - offset else { return nil }
        return data[low]
    }

    /// Gives each sample of unknown size the bytes up to the next sample of the fragment
    /// (any track) or the end of its `mdat`; false when that cannot be told.
    func inferSizes(_ fragments: inout [TrackFragment]) -> Bool {
        let starts = fragments.flatMap { $0.samples.map(\.offset) }.sorted()
        for fragmentIndex in fragments.indices {
            for sampleIndex in fragments[fragmentIndex].samples.indices
            where fragments[fragmentIndex].samples[sampleIndex].size == nil {
                let offset = fragments[fragmentIndex].samples[sampleIndex].offset
                guard let container = range(holding: offset, size: 1) else { return false }
                let next = starts.first { $0 > offset && $0 < container.end } ?? container.end
                guard next - offset <= UInt64(UInt32.max) else { return false }
                fragments[fragmentIndex].samples[sampleIndex].size = UInt32(next - offset)
            }
        }
        return true
    }

    /// A movie whose finalisation was cut short, as mp4mux's hybrid mode leaves it: at the
    /// end of a recording it renames the first `moov` to `hoov`, stretches the first `mdat`
    /// over everything written so far (that `hoov`, the later `mdat`s and `moof`s), then
    /// appends the final `moov`. Killed before that `moov` is whole, the file holds no
    /// movie box at its top level; the layout returned lists what lies inside that first
    /// `mdat` instead (its own samples up to the `hoov`, then the `hoov` and the fragments),
    /// or nil when the first `mdat` holds no `hoov`.
    func finalisationCutShort() throws(MP4Error) -> FileLayout? {
        guard !boxes.contains(where: { $0.type == "moov" || $0.type == "hoov" }),
              let index = boxes.firstIndex(where: { $0.type == "mdat" }) else { return nil }
        let mdat = boxes[index]
        guard let hoov = try Self.findHoov(in: file, from: UInt64(mdat.payloadStart), to: UInt64(mdat.end)) else { return nil }
        let inner = try Box.sequence(in: file, from: hoov, to: UInt64(mdat.end))
        guard inner.first?.type == "hoov" else { return nil }
        var first = mdat
        first.end = Int(hoov)
        return try FileLayout(file: file, boxes: Array(boxes[..<index]) + [first] + inner + Array(boxes[(index + 1)...]))
    }

    /// The offset of the first `hoov` box (a renamed `moov`: "hoov" then "mvhd" 8 bytes on)
    /// in `start..<end`, read a megabyte at a time.
    private static func findHoov(in file: SampleFile, from start: UInt64, to end: UInt64) throws(MP4Error) -> UInt64? {
        let pattern = Array("hoov".utf8), header = Array("mvhd".utf8)
        var offset = start
        while offset + 16 <= end {
            let count = Int(min(1 << 20, end - offset))
            let bytes = try file.read(offset: offset, count: count)
            var index = 4
            while index + 12 <= bytes.count {
                if bytes[index] == pattern[0], Array(bytes[index..<index + 4]) == pattern,
                   Array(bytes[index + 8..<index + 12]) == header {
                    let size = UInt64(bytes[index - 4]) << 24 | UInt64(bytes[index - 3]) << 16
                        | UInt64(bytes[index - 2]) << 8 | UInt64(bytes[index - 1])
                    let boxStart = offset + UInt64(index) - 4
                    if size >= 16, size <= end - boxStart { return boxStart }
                }
                index += 1
            }
            // Overlap, so that a box header across two reads is still seen.
            guard count > 16 else { break }
            offset += UInt64(count - 16)
        }
        return nil
    }
}

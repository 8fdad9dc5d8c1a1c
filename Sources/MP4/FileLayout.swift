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
        self.file = file
        boxes = try Box.topLevel(in: file)
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
}

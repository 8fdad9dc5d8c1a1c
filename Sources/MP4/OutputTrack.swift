/// Where an output sample's bytes come from.
public enum SampleSource: Sendable, Equatable {
    /// A byte range of the source file.
    case file(offset: UInt64, size: UInt32)
    /// Bytes in memory (e.g. a re-encoded frame).
    case bytes([UInt8])
    /// Bytes not known yet: the writer asks for them once the file samples are written
    /// (see ``MovieWriter/write(path:sourcePath:fileType:movieTimescale:tracks:completing:)``).
    case pending

    /// The size in bytes (0 while pending).
    var size: Int {
        switch self {
        case .file(_, let size): Int(size)
        case .bytes(let bytes): bytes.count
        case .pending: 0
        }
    }

}

/// One sample to write.
public struct OutputSample: Sendable, Equatable {
    /// Its bytes.
    public var source: SampleSource
    /// Duration (media timescale); the decoding time of the next sample is this much later.
    public var duration: UInt32
    /// Presentation time minus decoding time (media timescale).
    public var compositionOffset: Int32
    /// Whether it is a sync sample.
    public var isSync: Bool

    /// Creates a sample.
    public init(source: SampleSource, duration: UInt32, compositionOffset: Int32, isSync: Bool) {
        self.source = source
        self.duration = duration
        self.compositionOffset = compositionOffset
        self.isSync = isSync
    }
}

/// A track to write: the boxes copied from the source track, a new edit list and the samples.
public struct OutputTrack: Sendable {
    /// The source track whose header, handler, media header, timescale and language are kept.
    public var template: Track
    /// The sample description (`stsd` entry) to write, whole.
    public var sampleEntry: [UInt8]
    /// The edit list (movie timescale for durations, media timescale for media times).
    public var edits: [Edit]
    /// The samples in decoding order; the first is decoded at time 0.
    public var samples: [OutputSample]

    /// Creates a track from a source track's boxes.
    public init(template: Track, sampleEntry: [UInt8]? = nil, edits: [Edit], samples: [OutputSample]) {
        self.template = template
        self.sampleEntry = sampleEntry ?? template.sampleEntry
        self.edits = edits
        self.samples = samples
    }

    /// The media's length (media timescale): the sum of the sample durations.
    public var mediaDuration: UInt64 { samples.reduce(0) { $0 + UInt64($1.duration) } }
}

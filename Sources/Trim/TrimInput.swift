import MediaValues

/// A movie opened for trimming, the first stage of ``Trimmer``: its frame index, which the
/// later stages (times, plan, output timeline) work on, and access to its compressed
/// samples, which only its writer uses.
///
/// Two implementations, each with the writer that fits how it reaches its samples:
/// ``MP4Input`` reads a plain MP4/MOV's sample tables (any sample by its place in the
/// file: ``MP4TrimWriter`` copies the body in the kernel); ``GStreamerInput`` goes through
/// GStreamer's demuxers (one pass in decode order: ``GStreamerTrimWriter``).
protocol TrimInput {
    /// The input file, as the user spelled it.
    var path: String { get }
    /// Every video frame (decode order) and audio packet, the caps and the edit-list offsets.
    var index: FrameIndex { get }
    /// The writer that makes `job`'s output from this input's samples.
    func writer(for job: TrimJob) -> any TrimWriter
}

/// What a writer is asked to make: the plan's frames, on the output timeline, in a file.
struct TrimJob {
    /// Which frames are copied and which re-encoded.
    var plan: TrimPlan
    /// The input's video codec.
    var codec: TrimCodec
    /// How re-encoded frames are made (nil when the plan copies everything).
    var encoding: VideoEncoding?
    /// The file to write (the temporary file beside the final one).
    var outputPath: String
    /// The container to write.
    var outputContainer: MediaContainer
    /// Bounds every wait, stops on cancellation, and takes progress reports.
    var control: TrimControl
    /// When the output's first frame was captured (ms since 1970), when the input says:
    /// what a Matroska output's `DateUTC` holds.
    var capturedMilliseconds: Int64? = nil

    /// The codec written: the encoding's (H.264 for a whole re-encode; the input's own for
    /// re-encoded edges), else the input's.
    var outputCodec: TrimCodec { encoding?.codec ?? codec }

    /// The effort of the re-encoders: the edges of a cut, or a whole movie.
    var effort: VideoEncoding.Effort { plan.mode == .reencode ? .whole : .edges }
}

/// Writes a trim's output (the fourth stage of ``Trimmer``), from an input's samples laid
/// out on an ``OutputTimeline``.
protocol TrimWriter {
    /// Writes the output file; returns its tracks and what of the input it could not keep.
    func write() throws -> WrittenMovie
    /// The written file's video frames, counted by reading it back (the check before it is
    /// published).
    func countWrittenFrames() throws -> Int
}

/// What a writer wrote: the output's tracks, in order, and the input's tracks it could not
/// keep, each with the reason.
struct WrittenMovie: Sendable, Equatable {
    var tracks: [TrimTrack] = []
    var warnings: [String] = []

    /// Audio packets over all sound tracks.
    var audioPackets: Int { tracks.filter { $0.kind == .audio }.reduce(0) { $0 + $1.samples } }

    /// Notes that the input's track or stream `label` ("track 4", "stream audio_1"), a
    /// `kind` track of `codec`, is not in the output, because `reason`.
    mutating func drop(_ label: String, kind: TrimTrack.Kind, codec: String, because reason: String) {
        warnings.append("\(label) of the input (\(kind.rawValue), \(codec)) is not in the output: \(reason)")
    }
}

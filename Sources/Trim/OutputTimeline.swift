/// Where each frame of a trim's output goes on the output's timeline, and which audio goes
/// with it: pure value logic from the plan and the frame index (no media), which both
/// writers lay their output out by. Video times are in the unit of the frames given:
/// nanoseconds for a GStreamer muxer, an MP4 track's ticks for camrec's own sample tables.
///
/// - The output starts at 0: a frame's output PTS is its PTS minus the first output frame's.
/// - Copied frames keep their decoding offsets (PTS − DTS). Re-encoded frames, which the
///   encoder returns in presentation order and without reordering, get DTS = PTS − the
///   reorder delay (the first copied frame's PTS − DTS), so that DTS rise across the joins.
/// - A DTS that would not rise (never for well-formed inputs) is put one
///   `minimumDecodeStep` after the one before, and no later than its PTS when that can be.
/// - Durations are the source frames' own.
struct OutputTimeline: Sendable, Equatable {
    /// One frame of the output.
    struct Frame: Sendable, Equatable {
        /// The input frame (decode index) it shows: itself when copied, the picture it
        /// re-encodes otherwise.
        var source: Int
        /// Whether it is copied bit-exact (else re-encoded).
        var isCopied: Bool
        /// Presentation time; the output's first frame is at 0.
        var pts: Int64
        /// Decoding time: strictly rising; before 0 by the reorder delay with B-frames.
        var dts: Int64
        /// How long it is shown.
        var duration: Int64
    }

    /// The output's frames in output (decode) order.
    let frames: [Frame]
    /// Where each of the plan's parts lies in ``frames``: a copied part's frames in decode
    /// order, a re-encoded part's in presentation order, as its encoder returns them.
    let parts: [Range<Int>]
    /// How far the copied frames' decoding runs ahead of their presentation (B-frames;
    /// 0 without reordering or without copied frames).
    let reorderDelay: Int64
    /// The end of the last frame shown: the output's video duration.
    let end: Int64
    /// The audio that goes with the video (nanoseconds, whatever the video's unit).
    let audio: AudioWindow

    /// Lays out `plan` over `index`.
    ///
    /// - Parameters:
    ///   - times: the index's video frames measured in the unit the output is written in
    ///     (an MP4 track's ticks), in the same order; nil: the index's nanoseconds.
    ///   - minimumDecodeStep: the step that keeps a DTS rising when it would not (1 ms in
    ///     nanoseconds, which muxers keep apart; 1 tick in sample tables).
    init(plan: TrimPlan, index: FrameIndex, times: [VideoFrame]? = nil, minimumDecodeStep: Int64) {
        let frames = index.video
        let times = times ?? frames
        precondition(times.count == frames.count, "times must measure the index's frames")
        var order: [(source: Int, isCopied: Bool)] = []
        var parts: [Range<Int>] = []
        for part in plan.parts {
            let start = order.count
            switch part {
            case .copy(let range):
                order += range.map { ($0, true) }
            case .encode:
                order += part.keptFrames(of: frames).map { ($0, false) }
            }
            parts.append(start..<order.count)
        }
        let origin = order.map { times[$0.source].pts }.min() ?? 0
        let firstCopied = order.first { $0.isCopied }.map { times[$0.source] }
        let reorderDelay = firstCopied.map { max(0, $0.pts - $0.dts) } ?? 0
        var laidOut: [Frame] = []
        laidOut.reserveCapacity(order.count)
        var lastDTS = Int64.min
        var end: Int64 = 0
        for (source, isCopied) in order {
            let time = times[source]
            let pts = time.pts - origin
            var dts = isCopied ? time.dts - origin : pts - reorderDelay
            if dts <= lastDTS {
                let next = lastDTS + minimumDecodeStep
                dts = pts > lastDTS ? min(next, pts) : next
            }
            lastDTS = dts
            laidOut.append(Frame(source: source, isCopied: isCopied, pts: pts, dts: dts, duration: time.duration))
            end = max(end, pts + time.duration)
        }
        self.frames = laidOut
        self.parts = parts
        self.reorderDelay = reorderDelay
        self.end = end
        audio = AudioWindow(
            plan: plan, presentationOffset: index.presentationOffset,
            audioPresentationOffset: index.audioPresentationOffset
        )
    }

    /// The time from frame `position`'s decoding to the next one's (the last frame: its own
    /// duration), as an MP4 sample table's durations hold it.
    func decodeDuration(at position: Int) -> Int64 {
        position + 1 < frames.count
            ? frames[position + 1].dts - frames[position].dts
            : frames[position].duration
    }

    /// The position in ``frames`` of input frame `source` (decode index) in the copied part
    /// `part`: copied frames keep their decode order.
    func position(ofCopied source: Int, inPart part: Int) -> Int {
        let first = parts[part].lowerBound
        return first + source - frames[first].source
    }
}

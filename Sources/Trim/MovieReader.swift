import CamrecCore
import GStreamer
import MediaValues
import Synchronization

/// Reads a movie's compressed video frames (in decode order, as whole access units) and
/// the packets of other streams (sound, subtitles: by the demuxer's pad name) through
/// appsinks, from a position onwards. Nothing is decoded.
final class MovieReader {
    let pipeline: Pipeline
    private let videoSink: AppSink
    /// The other streams read, in the order asked for.
    private let branches: [Branch]
    private var token: SignalToken?
    private var segmentOpener: ProbeToken?
    /// Serves qtdemux a movie header it does not take for a preview (``MovieHeaderPatch``).
    private var headerPatch: ProbeToken?
    private let control: TrimControl
    private let container: MediaContainer
    /// Wakes the reading thread when a sink has a sample or ended, or an error is posted.
    private let activity = SinkActivity()
    private var activityWatch: ActivityWatch?
    /// The errors posted on the pipeline's bus since it was made (nothing reads that bus:
    /// a reader would see them all there).
    private let errors: ErrorWatch
    /// The demuxer's pads: the one linked to the video branch, and all of them.
    let demuxerPads = DemuxerPads()

    /// A stream other than the video: its pad's name, queue and appsink.
    private struct Branch {
        var padName: String
        var queue: Element
        var sink: AppSink
        var pad: Pad
    }

    /// Builds `filesrc ! demuxer`, a video branch (queue, parser, appsink) and a branch
    /// (queue, appsink) for each demuxer pad named in `streams`; demuxer pads are linked as
    /// they come (the first video pad to the video branch). `control` bounds every wait (a
    /// demuxer that stalls) and stops on cancellation.
    init(
        path: String, container: MediaContainer, codec: TrimCodec?, streams: [String] = [], control: TrimControl
    ) throws(GStreamerError) {
        self.control = control
        self.container = container
        pipeline = try Pipeline(name: "trim-reader")
        errors = ErrorWatch(errorsOf: pipeline)
        let source = try Element.make("filesrc", name: "source")
        try source.set("location", path)
        headerPatch = container == .matroska ? nil : MovieHeaderPatch.attach(to: source, path: path)
        let demuxer = try Element.make(container.demuxer, name: "demuxer")
        let videoQueue = try Element.make("queue", name: "video-queue")
        try videoQueue.set("max-size-buffers", 0)
        try videoQueue.set("max-size-bytes", 0)
        try videoQueue.set("max-size-time", 2_000_000_000)
        let videoChain: [Element]
        if let parser = codec?.parser, let caps = codec?.readerCaps {
            let parse = try Element.make(parser, name: "video-parser")
            if codec?.repeatsConfiguration == true { try parse.set("config-interval", -1) }
            let filter = try Element.make("capsfilter", name: "video-format")
            try filter.set("caps", Caps(caps))
            videoChain = [videoQueue, parse, filter]
        } else {
            videoChain = [videoQueue]
        }
        let video = try Element.make("appsink", name: "video-sink")
        try video.set("sync", false)
        try video.set("max-buffers", 16)
        try video.set("enable-last-sample", false)
        for element in [source, demuxer] + videoChain + [video] { try pipeline.add(element) }
        try source.link(demuxer)
        for (element, next) in zip(videoChain, videoChain.dropFirst() + [video]) { try element.link(next) }
        videoSink = try AppSink(video)
        // The sink must not drop frames before the segment start: they are decoding references.
        segmentOpener = try video.staticPad("sink").openSegmentStarts()
        let videoPad = try videoQueue.staticPad("sink")
        var branches: [Branch] = []
        for (position, name) in streams.enumerated() {
            let queue = try Element.make("queue", name: "stream-queue-\(position)")
            for property in ["max-size-buffers", "max-size-bytes", "max-size-time"] { try queue.set(property, 0) }
            let sink = try Element.make("appsink", name: "stream-sink-\(position)")
            try sink.set("sync", false)
            try sink.set("async", false)
            try sink.set("enable-last-sample", false)
            // Without this, a stream's end waits in the sink (holding its preroll lock) until
            // every packet is pulled; the reader pulls video first, so a state change then
            // waits on that sink and the video sink waits on the state change: a deadlock.
            try sink.set("wait-on-eos", false)
            try pipeline.add(queue)
            try pipeline.add(sink)
            try queue.link(sink)
            branches.append(Branch(padName: name, queue: queue, sink: try AppSink(sink), pad: try queue.staticPad("sink")))
        }
        self.branches = branches
        let linked = Mutex(false)
        let targets = Dictionary(branches.map { ($0.padName, $0.pad) }, uniquingKeysWith: { first, _ in first })
        token = demuxer.onPadAdded { [demuxerPads] pad in
            let caps = pad.capsNowOrQueried
            let mediaType = caps?.mediaType ?? ""
            let isVideo = mediaType.hasPrefix("video/") || mediaType == "image/jpeg"
            let isFirstVideo = isVideo && linked.withLock { done in
                defer { done = true }
                return !done
            }
            demuxerPads.pads.withLock { pads in
                if isFirstVideo { pads.video = pad } else { pads.others.append((pad, caps?.description ?? "", mediaType)) }
            }
            if let target = isFirstVideo ? videoPad : targets[pad.name] { try? pad.link(target) }
        }
        activityWatch = activity.watch([videoSink] + branches.map(\.sink), errorsOf: pipeline)
    }

    /// Prerolls, seeks so that video starts at the keyframe at or before `position`
    /// (presentation time, nil: the beginning), and starts playing.
    ///
    /// A Matroska position is a buffer time, but matroskademux seeks in stream time, which
    /// it counts from the first timestamp of the file (its first segment maps that
    /// timestamp to time 0): a file whose timestamps start at 2 s (ffmpeg
    /// `-output_ts_offset 2`, a cut stream) is sought 2 s earlier than the buffer time.
    func start(at position: UInt64?, flags: SeekFlags = [.flush, .accurate]) throws {
        if let position, position > 0 {
            try pipeline.setStateThrowingPostedError(.paused)
            try waitForPreroll()
            var target = position
            if container == .matroska, let segment = demuxerPads.videoSegment, segment.start > segment.time {
                target = position - min(position, segment.start - segment.time)
            }
            guard pipeline.seek(to: target, flags: flags) else {
                throw GStreamerError.seek(element: "demuxer", position: position)
            }
            try waitForPreroll()
        }
        try pipeline.setStateThrowingPostedError(.playing)
    }

    /// Waits for the pipeline to reach PAUSED (a demuxer reads the movie's headers and
    /// its first frames), for at most the stall timeout.
    private func waitForPreroll() throws {
        try PipelineRunner.waitForPaused(pipeline, watch: control.watch("the demuxer (\(pipeline.name), pausing)"), errors: errors)
    }

    /// The next video frame; nil at the end of the stream. Throws `stalled` when none
    /// comes for the stall timeout. Blocks until the sink has something (or an error).
    func nextVideo() throws -> Sample? {
        let watch = control.watch("the demuxer (reading video)")
        while true {
            let seen = activity.current
            if let sample = videoSink.pullSample(timeoutNanoseconds: 0) { return sample }
            if videoSink.isEndOfStream { return nil }
            try PipelineRunner.checkForError(errors)
            try watch.wait(for: activity, since: seen)
        }
    }

    /// How much the sinks and the bus have done so far: read it before looking at them, then
    /// wait with `waitForActivity(since:watch:)`.
    var activityMark: UInt64 { activity.current }

    /// Blocks until a sink gets a sample or ends, or an error is posted, after `mark`;
    /// bounded by `watch` (throws `stalled` or `interrupted`).
    func waitForActivity(since mark: UInt64, watch: StallWatch) throws(CamrecError) {
        try watch.wait(for: activity, since: mark)
    }

    /// The packets of stream `stream` (its position in `streams`) that have arrived, without waiting.
    func available(_ stream: Int) -> [Sample] {
        var samples: [Sample] = []
        while let sample = branches[stream].sink.pullSample(timeoutNanoseconds: 0) { samples.append(sample) }
        return samples
    }

    /// The next packet of stream `stream`, waiting a little; nil at the end or on time-out.
    func next(_ stream: Int, timeoutNanoseconds: UInt64) -> Sample? {
        branches[stream].sink.pullSample(timeoutNanoseconds: timeoutNanoseconds)
    }

    /// Whether stream `stream` has ended.
    func hasEnded(_ stream: Int) -> Bool { branches[stream].sink.isEndOfStream }

    /// How many packets of stream `stream` wait in its queue on their way to its sink.
    func queued(_ stream: Int) -> Int {
        Int((try? branches[stream].queue.property("current-level-buffers")) ?? "") ?? 0
    }

    /// How many other streams are read.
    var streamCount: Int { branches.count }

    /// Drops the video frames waiting in the sink, so the demuxer can go on with other
    /// streams; returns how many.
    @discardableResult
    func discardVideo() -> Int {
        var count = 0
        while videoSink.pullSample(timeoutNanoseconds: 0) != nil { count += 1 }
        return count
    }

    /// Whether the video branch has ended.
    var videoEnded: Bool { videoSink.isEndOfStream }

    /// Throws a pending pipeline error, or `interrupted` once the trim is cancelled.
    func check() throws {
        try PipelineRunner.checkForError(errors)
        try control.checkCancelled()
    }

    /// Stops the pipeline and releases the pad-added handler and the sinks' callbacks.
    func stop() {
        token?.disconnect()
        token = nil
        activityWatch?.stop()
        activityWatch = nil
        errors.stop()
        _ = try? pipeline.setState(.null)
    }

    deinit { stop() }
}

/// The demuxer pads a reader saw, set on a streaming thread: the video pad it linked, and
/// every other one with its caps.
final class DemuxerPads: Sendable {
    let pads = Mutex<(video: Pad?, others: [(pad: Pad, caps: String, mediaType: String)])>((nil, []))

    /// The segment the video pad last carried.
    var videoSegment: SegmentTimes? {
        pads.withLock { $0.video?.segmentTimes }
    }

    /// The other pads as streams, with the segment each last carried.
    func streams(container: MediaContainer) -> [DemuxedStream] {
        pads.withLock { pads in
            pads.others.map { other in
                DemuxedStream(
                    padName: other.pad.name, kind: DemuxedStream.kind(of: other.mediaType), caps: other.caps,
                    mediaType: other.mediaType,
                    presentationOffset: GStreamerInput.presentationOffset(other.pad.segmentTimes, container: container)
                )
            }
        }
    }
}

import GStreamer
import Synchronization

/// Reads a movie's compressed video frames (in decode order, as whole access units) and
/// audio packets through two appsinks, from a position onwards. Nothing is decoded.
final class MovieReader {
    let pipeline: Pipeline
    private let videoSink: AppSink
    private let audioSink: AppSink?
    private var token: SignalToken?
    private var segmentOpener: ProbeToken?
    private let control: TrimControl
    /// Wakes the reading thread when a sink has a sample or ended, or an error is posted.
    private let activity = SinkActivity()
    private var activityWatch: ActivityWatch?
    /// The demuxer pads linked to the video and audio branches (for their segments).
    let demuxerPads = DemuxerPads()

    /// Builds `filesrc ! demuxer`, a video branch (queue, parser, appsink) and, when
    /// `audio` is set, an audio branch (queue, appsink); demuxer pads are linked as they come.
    /// `control` bounds every wait (a demuxer that stalls) and stops on cancellation.
    init(
        path: String, container: MediaContainer, codec: VideoCodec?, audio: Bool, control: TrimControl
    ) throws(GStreamerError) {
        self.control = control
        pipeline = try Pipeline(name: "trim-reader")
        let source = try Element.make("filesrc", name: "source")
        try source.set("location", path)
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
        var audioPad: Pad?
        if audio {
            let audioQueue = try Element.make("queue", name: "audio-queue")
            for property in ["max-size-buffers", "max-size-bytes", "max-size-time"] { try audioQueue.set(property, 0) }
            let sink = try Element.make("appsink", name: "audio-sink")
            try sink.set("sync", false)
            try sink.set("async", false)
            try sink.set("enable-last-sample", false)
            try pipeline.add(audioQueue)
            try pipeline.add(sink)
            try audioQueue.link(sink)
            audioSink = try AppSink(sink)
            audioPad = try audioQueue.staticPad("sink")
        } else {
            audioSink = nil
        }
        let linked = Mutex((video: false, audio: false))
        token = demuxer.onPadAdded { [audioPad, demuxerPads] pad in
            let mediaType = pad.capsNowOrQueried?.mediaType ?? ""
            let isVideo = mediaType.hasPrefix("video/") || mediaType == "image/jpeg"
            let isAudio = mediaType.hasPrefix("audio/")
            let target: Pad? = linked.withLock { state in
                if isVideo, !state.video {
                    state.video = true
                    return videoPad
                }
                if isAudio, !state.audio, let audioPad {
                    state.audio = true
                    return audioPad
                }
                return nil
            }
            if let target {
                demuxerPads.pads.withLock { pads in
                    if target === videoPad { pads.video = pad } else { pads.audio = pad }
                }
                try? pad.link(target)
            }
        }
        activityWatch = activity.watch([videoSink] + (audioSink.map { [$0] } ?? []), errorsOf: pipeline)
    }

    /// Prerolls, seeks so that video starts at the keyframe at or before `position`
    /// (presentation time, nil: the beginning), and starts playing.
    func start(at position: UInt64?, flags: SeekFlags = [.flush, .accurate]) throws {
        if let position, position > 0 {
            try pipeline.setStateThrowingPostedError(.paused)
            try waitForPreroll()
            guard pipeline.seek(to: position, flags: flags) else {
                throw GStreamerError.seek(element: "demuxer", position: position)
            }
            try waitForPreroll()
        }
        try pipeline.setStateThrowingPostedError(.playing)
    }

    /// Waits for the pipeline to reach PAUSED (a demuxer reads the movie's headers and
    /// its first frames), for at most the stall timeout.
    private func waitForPreroll() throws {
        let watch = control.watch("the demuxer (\(pipeline.name), pausing)")
        while true {
            try PipelineRunner.checkForError(pipeline)
            switch pipeline.waitForStateChange(timeoutNanoseconds: 100_000_000) {
            case .reached: return
            case .stillChanging: try watch.check()
            case .failed:
                try PipelineRunner.checkForError(pipeline)
                throw GStreamerError.stateChange(element: pipeline.name, to: .paused)
            }
        }
    }

    /// The next video frame; nil at the end of the stream. Throws `stalled` when none
    /// comes for the stall timeout. Blocks until the sink has something (or an error).
    func nextVideo() throws -> Sample? {
        let watch = control.watch("the demuxer (reading video)")
        while true {
            let seen = activity.current
            if let sample = videoSink.pullSample(timeoutNanoseconds: 0) { return sample }
            if videoSink.isEndOfStream { return nil }
            try PipelineRunner.checkForError(pipeline)
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

    /// The audio packets that have arrived, without waiting.
    func availableAudio() -> [Sample] {
        guard let audioSink else { return [] }
        var samples: [Sample] = []
        while let sample = audioSink.pullSample(timeoutNanoseconds: 0) { samples.append(sample) }
        return samples
    }

    /// The next audio packet, waiting a little; nil at the end or on time-out.
    func nextAudio(timeoutNanoseconds: UInt64) -> Sample? {
        audioSink?.pullSample(timeoutNanoseconds: timeoutNanoseconds)
    }

    /// Drops the video frames waiting in the sink, so the demuxer can go on with audio;
    /// returns how many.
    @discardableResult
    func discardVideo() -> Int {
        var count = 0
        while videoSink.pullSample(timeoutNanoseconds: 0) != nil { count += 1 }
        return count
    }

    /// Whether the audio branch has ended (or there is none).
    var audioEnded: Bool { audioSink?.isEndOfStream ?? true }

    /// Whether the video branch has ended.
    var videoEnded: Bool { videoSink.isEndOfStream }

    /// Throws a pending pipeline error, or `interrupted` once the trim is cancelled.
    func check() throws {
        try PipelineRunner.checkForError(pipeline)
        try control.checkCancelled()
    }

    /// Stops the pipeline and releases the pad-added handler and the sinks' callbacks.
    func stop() {
        token?.disconnect()
        token = nil
        activityWatch?.stop()
        activityWatch = nil
        _ = try? pipeline.setState(.null)
    }

    deinit { stop() }
}

/// The demuxer pads a reader linked, set on a streaming thread.
final class DemuxerPads: Sendable {
    let pads = Mutex<(video: Pad?, audio: Pad?)>((nil, nil))

    /// The segment each pad last carried.
    var segments: (video: SegmentTimes?, audio: SegmentTimes?) {
        pads.withLock { ($0.video?.segmentTimes, $0.audio?.segmentTimes) }
    }

    var hasAudio: Bool { pads.withLock { $0.audio != nil } }
}

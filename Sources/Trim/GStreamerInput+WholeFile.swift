import CamrecCore
import FoundationEssentials
import GStreamer
import MediaValues
import Synchronization

extension GStreamerInput {
    /// Indexes the whole of `path` with a demux-only pass (`filesrc ! demuxer`, a pad probe
    /// and a fakesink per stream; nothing is decoded), reporting the `indexing` phase when
    /// `reportingProgress` (not for a check of the output, which is no phase of its own).
    ///
    /// - Throws: ``CamrecError`` (invalid input) for anything that is not a movie with video;
    ///   `stalled` when the demuxer stops producing buffers for the stall timeout,
    ///   `interrupted` on cancellation.
    static func indexWholeFile(
        path: String, control: TrimControl = TrimControl(), reportingProgress: Bool = true
    ) throws(CamrecError) -> FrameIndex {
        let container = try MediaContainer.identify(path: path)
        let recorder = PadRecorder(readsVOPTypes: container == .avi)
        let name = PathName.last(path)
        do {
            let pipeline = try Pipeline()
            let source = try Element.make("filesrc", name: "source")
            try source.set("location", path)
            let headerPatch = container == .matroska ? nil : MovieHeaderPatch.attach(to: source, path: path)
            defer { headerPatch?.remove() }
            let demuxer = try Element.make(container.demuxer, name: "demuxer")
            try pipeline.add(source)
            try pipeline.add(demuxer)
            try source.link(demuxer)
            let token = demuxer.onPadAdded { pad in recorder.attach(pad, to: pipeline) }
            defer {
                token.disconnect()
                _ = try? pipeline.setState(.null)
            }
            try pipeline.setStateThrowingPostedError(.playing)
            try PipelineRunner.waitForEndOfStream(
                pipeline, watch: control.watch("the demuxer (indexing \(name))"),
                progress: { Int64(recorder.recordedCount) },
                poll: {
                    if reportingProgress, let position = pipeline.position(), let duration = pipeline.queryDuration(), duration > 0 {
                        control.report(TrimProgress(phase: .indexing, done: Int64(position), total: Int64(duration)))
                    }
                }
            )
            recorder.finish()
        } catch let error as CamrecError {
            throw error
        } catch let error as GStreamerError {
            throw CamrecError.from(error, reading: name)
        } catch {
            throw CamrecError.invalidInput("cannot read \(name): \(error)")
        }
        return try recorder.index(container: container, name: name)
    }
}

/// Records buffer timings from the demuxer's pads on streaming threads: the first video
/// and the first audio stream (whose packets the index lists); every pad goes to a fakesink,
/// and every one but the video's is noted with its caps and segment (``FrameIndex/streams``).
private final class PadRecorder: Sendable {
    struct Stream {
        var pad: Pad
        var mediaType: String
        var caps: String
        var codecData: [UInt8]?
        var timings: [BufferTiming] = []
        var idr: [Bool] = []
        /// The VOP coding types of each frame (MPEG-4 Part 2 in AVI only).
        var vopTypes: [[UInt8]] = []
        var segment: SegmentTimes?
        var probe: ProbeToken?
    }

    struct State {
        var video: Stream?
        var audio: Stream?
        /// Every pad but the video's, in the order they came: name, caps, pad.
        var others: [(pad: Pad, caps: String, mediaType: String)] = []
        var otherSegments: [SegmentTimes?] = []
        var sinks: [Element] = []
    }

    private let state = Mutex(State())
    /// Whether MPEG-4 Part 2 frames' VOP types are read (AVI gives no presentation times).
    private let readsVOPTypes: Bool

    init(readsVOPTypes: Bool) {
        self.readsVOPTypes = readsVOPTypes
    }

    /// Links a new demuxer pad to a fakesink, and records its buffers when it is the first
    /// video or the first audio stream.
    func attach(_ pad: Pad, to pipeline: Pipeline) {
        guard let sink = try? Element.make("fakesink") else { return }
        try? sink.set("sync", false)
        try? sink.set("async", false)
        guard (try? pipeline.add(sink)) != nil else { return }
        sink.syncStateWithParent()
        let caps = pad.capsNowOrQueried
        let mediaType = caps?.mediaType ?? ""
        let isVideo = mediaType.hasPrefix("video/") || mediaType == "image/jpeg"
        let isAudio = mediaType.hasPrefix("audio/")
        state.withLock { state in
            state.sinks.append(sink)
            if !(isVideo && state.video == nil) {
                state.others.append((pad, caps?.description ?? "", mediaType))
            }
            let wanted = (isVideo && state.video == nil) || (isAudio && state.audio == nil)
            guard wanted else { return }
            var stream = Stream(
                pad: pad, mediaType: mediaType, caps: caps?.description ?? "", codecData: caps?.bytes("codec_data")
            )
            let keyframes = DemuxedKeyframes(caps: caps)
            let vops = isVideo && readsVOPTypes && TrimCodec.forMediaType(mediaType, caps: caps).edgeEncoder == .mpeg4
            stream.probe = pad.addProbe(.buffer) { [weak self] info in
                guard let buffer = info.buffer else { return .pass }
                let timing = buffer.timing
                let idr = isVideo && keyframes.isIDR(timing) { buffer.withBytes($0) }
                let types = vops ? buffer.withBytes(MPEG4FrameOrder.vopTypes) ?? [] : nil
                self?.record(timing, isIDR: idr, vopTypes: types, video: isVideo)
                return .pass
            }
            if isVideo { state.video = stream } else { state.audio = stream }
        }
        if let sinkPad = try? sink.staticPad("sink") { try? pad.link(sinkPad) }
    }

    private func record(_ timing: BufferTiming, isIDR: Bool, vopTypes: [UInt8]?, video: Bool) {
        state.withLock { state in
            if video {
                state.video?.timings.append(timing)
                state.video?.idr.append(isIDR)
                if let vopTypes { state.video?.vopTypes.append(vopTypes) }
            } else {
                state.audio?.timings.append(timing)
            }
        }
    }

    /// How many buffers have been recorded so far (progress while indexing).
    var recordedCount: Int {
        state.withLock { ($0.video?.timings.count ?? 0) + ($0.audio?.timings.count ?? 0) }
    }

    /// Reads the segments and removes the probes once the stream has ended.
    func finish() {
        state.withLock { state in
            let videoSegment = state.video?.pad.segmentTimes
            let audioSegment = state.audio?.pad.segmentTimes
            state.video?.segment = videoSegment
            state.audio?.segment = audioSegment
            state.otherSegments = state.others.map(\.pad.segmentTimes)
            state.video?.probe?.remove()
            state.audio?.probe?.remove()
        }
    }

    func index(container: MediaContainer, name: String) throws(CamrecError) -> FrameIndex {
        let (video, audio, others, otherSegments) = state.withLock { ($0.video, $0.audio, $0.others, $0.otherSegments) }
        guard let video else {
            let what = audio == nil ? "no video or audio stream" : "no video stream (audio only)"
            throw .invalidInput("cannot trim \(name): it has \(what)")
        }
        var timings = video.timings
        if !video.vopTypes.isEmpty, video.timings.contains(where: { $0.pts == nil }) {
            guard let ordered = MPEG4FrameOrder.presentationTimes(video.timings, types: video.vopTypes) else {
                throw .invalidInput(
                    "cannot trim \(name): its MPEG-4 video holds more than one picture per AVI frame (a DivX \"packed"
                        + " bitstream\"), whose display order camrec cannot tell; unpack it first"
                        + " (ffmpeg -i IN -c copy -bsf:v mpeg4_unpack_bframes OUT.avi)"
                )
            }
            timings = ordered
        }
        let frames = GStreamerInput.frames(timings, idr: video.idr)
        guard !frames.isEmpty else { throw .invalidInput("cannot trim \(name): its video stream has no frames") }
        let packets = (audio?.timings ?? []).compactMap { timing -> AudioPacket? in
            guard let pts = timing.pts else { return nil }
            return AudioPacket(pts: Int64(pts), duration: Int64(timing.duration ?? 0))
        }
        return FrameIndex(
            container: container, video: frames, videoCaps: video.caps, videoMediaType: video.mediaType,
            codecData: video.codecData, audio: packets, audioMediaType: audio?.mediaType, audioCaps: audio?.caps,
            audioPresentationOffset: GStreamerInput.presentationOffset(audio?.segment, container: container),
            presentationOffset: GStreamerInput.presentationOffset(video.segment, container: container),
            streams: others.enumerated().map { position, other in
                DemuxedStream(
                    padName: other.pad.name, kind: DemuxedStream.kind(of: other.mediaType), caps: other.caps,
                    mediaType: other.mediaType,
                    presentationOffset: GStreamerInput.presentationOffset(
                        position < otherSegments.count ? otherSegments[position] : nil, container: container
                    )
                )
            }
        )
    }
}

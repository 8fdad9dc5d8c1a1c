import GStreamer
import Synchronization

/// Collects buffer timings from the demuxer's pads on streaming threads.
final class IndexCollector: Sendable {
    struct Stream {
        var pad: Pad
        var mediaType: String
        var caps: String
        var codecData: [UInt8]?
        var timings: [BufferTiming] = []
        var idr: [Bool] = []
        var segment: SegmentTimes?
        var probe: ProbeToken?
    }

    struct State {
        var video: Stream?
        var audio: Stream?
        var sinks: [Element] = []
    }

    private let state = Mutex(State())

    /// Links a new demuxer pad to a fakesink, and records the first video and first audio
    /// stream's buffers.
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
            let wanted = (isVideo && state.video == nil) || (isAudio && state.audio == nil)
            guard wanted else { return }
            var stream = Stream(
                pad: pad, mediaType: mediaType, caps: caps?.description ?? "", codecData: caps?.bytes("codec_data")
            )
            let lengthSize = caps?.bytes("codec_data").flatMap(H264Bitstream.lengthSize) ?? 4
            let isH264 = mediaType == "video/x-h264"
            stream.probe = pad.addProbe(.buffer) { [weak self] info in
                guard let buffer = info.buffer else { return .pass }
                let timing = buffer.timing
                // H.264 keyframes: an IDR slice, or an open-GOP I-frame that is not one.
                let idr = isVideo && isH264 && timing.isKeyframe
                    ? buffer.withBytes { H264Bitstream.isIDR($0, lengthSize: lengthSize) } ?? false
                    : timing.isKeyframe
                self?.record(timing, isIDR: idr, video: isVideo)
                return .pass
            }
            if isVideo { state.video = stream } else { state.audio = stream }
        }
        if let sinkPad = try? sink.staticPad("sink") { try? pad.link(sinkPad) }
    }

    private func record(_ timing: BufferTiming, isIDR: Bool, video: Bool) {
        state.withLock { state in
            if video {
                state.video?.timings.append(timing)
                state.video?.idr.append(isIDR)
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
            state.video?.probe?.remove()
            state.audio?.probe?.remove()
        }
    }

    func index(container: MediaContainer, name: String) throws(CamrecError) -> FrameIndex {
        let (video, audio) = state.withLock { ($0.video, $0.audio) }
        guard let video else {
            let what = audio == nil ? "no video or audio stream" : "no video stream (audio only)"
            throw .invalidInput("cannot trim \(name): it has \(what)")
        }
        let frames = Self.frames(video.timings, idr: video.idr)
        guard !frames.isEmpty else { throw .invalidInput("cannot trim \(name): its video stream has no frames") }
        let packets = (audio?.timings ?? []).compactMap { timing -> AudioPacket? in
            guard let pts = timing.pts else { return nil }
            return AudioPacket(pts: Int64(pts), duration: Int64(timing.duration ?? 0))
        }
        // Matroska has no edit lists: its buffer times are the presentation times.
        let matroska = container == .matroska
        let offset = matroska ? 0 : video.segment.map { Int64($0.start) - Int64($0.time) } ?? 0
        let audioOffset = matroska ? 0 : audio?.segment.map { Int64($0.start) - Int64($0.time) } ?? 0
        return FrameIndex(
            container: container, video: frames, videoCaps: video.caps, videoMediaType: video.mediaType,
            codecData: video.codecData, audio: packets, audioMediaType: audio?.mediaType, audioCaps: audio?.caps,
            audioPresentationOffset: audioOffset, presentationOffset: offset
        )
    }

    /// Frames from buffer timings; missing durations come from the next frame in
    /// presentation order (the last one repeats the one before).
    static func frames(_ timings: [BufferTiming], idr: [Bool]) -> [VideoFrame] {
        var frames: [VideoFrame] = timings.indices.compactMap { index in
            let timing = timings[index]
            guard let pts = timing.pts ?? timing.dts else { return nil }
            return VideoFrame(
                pts: Int64(pts), dts: timing.dts.map(Int64.init), duration: Int64(timing.duration ?? 0),
                isKeyframe: timing.isKeyframe, isIDR: index < idr.count ? idr[index] : timing.isKeyframe
            )
        }
        let order = frames.indices.sorted { frames[$0].pts < frames[$1].pts }
        let decodeTimesRise = zip(frames, frames.dropFirst()).allSatisfy { $0.dts < $1.dts }
        if !decodeTimesRise || timings.contains(where: { $0.dts == nil }) {
            // Matroska stores no DTS: derive them from the sorted PTS, delayed just enough
            // that no frame is decoded after it is shown.
            let sorted = order.map { frames[$0].pts }
            let delay = frames.indices.map { sorted[$0] - frames[$0].pts }.max() ?? 0
            for index in frames.indices { frames[index].dts = sorted[index] - max(0, delay) }
        }
        for (position, index) in order.enumerated() where frames[index].duration <= 0 {
            if position + 1 < order.count {
                frames[index].duration = frames[order[position + 1]].pts - frames[index].pts
            } else if position > 0 {
                frames[index].duration = frames[index].pts - frames[order[position - 1]].pts
            }
        }
        return frames
    }
}

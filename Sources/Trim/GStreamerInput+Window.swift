import CamrecCore
import FoundationEssentials
import GStreamer
import MediaValues

extension GStreamerInput {
    /// Indexes only the frames a cut of `[start, end)` (presentation times) needs: from the
    /// IDR keyframe at or before the start (found with a keyframe seek) to 20 frames past the
    /// end. Costs a read of that part instead of the whole file. Its audio packets are not
    /// listed (the writer reads them as it goes), only the audio caps and offset.
    ///
    /// Returns nil when the window cannot be trusted (the demuxer cannot seek there, or no
    /// frame lies at or after the start): index the whole file then.
    static func indexWindow(
        path: String, start: Int64, end: Int64, control: TrimControl = TrimControl()
    ) throws(CamrecError) -> FrameIndex? {
        let name = PathName.last(path)
        let container = try MediaContainer.identify(path: path)
        var position = max(0, start)
        while true {
            guard let window = try readWindow(
                path: path, container: container, from: position, until: end, name: name, control: control
            ) else {
                return nil
            }
            let offset = window.presentationOffset
            guard window.video.contains(where: { $0.pts - offset >= start }) else { return nil }
            // Start on an IDR keyframe at or before the start; an open GOP may need an earlier one.
            if let first = window.video.first, first.isKeyframe, first.isIDR, first.pts - offset <= start {
                return window
            }
            guard position > 0 else { return nil }
            position = position > 10_000_000_000 ? position - max(10_000_000_000, position / 4) : 0
        }
    }

    /// Reads the video frames from the keyframe at or before `position` until 20 frames
    /// past `end` (presentation times), or the end of the movie.
    private static func readWindow(
        path: String, container: MediaContainer, from position: Int64, until end: Int64, name: String,
        control: TrimControl
    ) throws(CamrecError) -> FrameIndex? {
        var timings: [BufferTiming] = []
        var idr: [Bool] = []
        var videoCaps: Caps?
        var videoSegment: SegmentTimes?
        var streams: [DemuxedStream] = []
        do {
            let reader = try MovieReader(path: path, container: container, codec: nil, control: control)
            defer { reader.stop() }
            do {
                try reader.start(at: position > 0 ? UInt64(position) : nil, flags: [.flush, .keyUnit, .snapBefore])
            } catch let error as CamrecError {
                throw error
            } catch {
                return nil
            }
            var offset: Int64?
            var keyframes: DemuxedKeyframes?
            var framesPastEnd = 0
            while let sample = try reader.nextVideo(), let buffer = sample.buffer {
                if videoCaps == nil { videoCaps = sample.caps }
                if offset == nil {
                    // For the stop below only: the segment's offset as the demuxer gives it.
                    // Matroska's buffer times are its presentation times (its segment counts
                    // stream time from the first timestamp).
                    let segment = container == .matroska ? nil : reader.demuxerPads.videoSegment
                    offset = segment.map { Int64($0.start) - Int64($0.time) } ?? 0
                }
                let timing = buffer.timing
                let kinds = keyframes ?? DemuxedKeyframes(caps: videoCaps)
                keyframes = kinds
                let isIDR = kinds.isIDR(timing) { buffer.withBytes($0) }
                let pts = Int64(timing.pts ?? timing.dts ?? 0) - (offset ?? 0)
                // Stop once 20 frames in a row lie past the end: no frame decoded later can be
                // shown before it (a decoded picture buffer holds at most 16 frames).
                framesPastEnd = pts >= end ? framesPastEnd + 1 : 0
                if framesPastEnd > 20 { break }
                timings.append(timing)
                idr.append(isIDR)
            }
            videoSegment = reader.demuxerPads.videoSegment
            streams = reader.demuxerPads.streams(container: container)
        } catch let error as CamrecError {
            throw error
        } catch let error as GStreamerError {
            throw CamrecError.from(error, reading: name)
        } catch {
            throw CamrecError.invalidInput("cannot read \(name): \(error)")
        }
        guard let videoCaps, let mediaType = videoCaps.mediaType else { return nil }
        let frames = frames(timings, idr: idr)
        guard !frames.isEmpty else { return nil }
        let audio = streams.first { $0.kind == .audio }
        return FrameIndex(
            container: container, video: frames, videoCaps: videoCaps.description, videoMediaType: mediaType,
            codecData: videoCaps.bytes("codec_data"), audio: [], audioMediaType: audio?.mediaType,
            audioCaps: audio?.caps, audioPresentationOffset: audio?.presentationOffset ?? 0,
            presentationOffset: presentationOffset(videoSegment, container: container), streams: streams
        )
    }
}

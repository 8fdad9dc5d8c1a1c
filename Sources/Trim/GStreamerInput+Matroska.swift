import CamrecCore
import GStreamer
import MediaValues

extension GStreamerInput {
    /// Opens a Matroska input without a demuxing pass over it: the streams and caps come from
    /// the demuxer's first frame, the video frames a cut needs from the clusters' block headers
    /// (``MatroskaBlockIndex``: the Cues lead to the cut's first cluster), and the end of the
    /// video, which negative times count back from, from the last clusters. Only the clusters
    /// from the keyframe before the start to just past the end are read.
    ///
    /// Returns nil (the caller indexes through the demuxer) when the file is not as this
    /// reader expects, or the cut lies wholly before its first frame (the demuxer's path
    /// decides then what times mean).
    ///
    /// - Throws: `stalled` or `interrupted` as ``TrimControl`` decides.
    static func openMatroska(
        path: String, start: TimeSpec?, end: TimeSpec?, control: TrimControl
    ) throws(CamrecError) -> (input: GStreamerInput, cost: MatroskaBlockIndex.Cost)? {
        guard let opening = try firstFrameAndStreams(path: path, control: control),
              var blocks = MatroskaBlockIndex(path: path, videoCaps: opening.caps)
        else { return nil }
        var cost = MatroskaBlockIndex.Cost()
        guard let first = blocks.firstVideoTime(cost: &cost) else { return nil }
        // A cut wholly before the first frame of a file whose timeline starts later is
        // counted from its first frame (``CutTimes/countedFromFirstFrame``): the demuxer's path.
        if first >= 1_000_000, let end, !end.isNegative, end.nanoseconds <= first { return nil }
        var length: Int64?
        if start?.isNegative ?? false || end?.isNegative ?? true {
            guard let end = blocks.videoEnd(cost: &cost) else { return nil }
            length = end
        }
        func resolve(_ time: TimeSpec?, default value: Int64) -> Int64 {
            guard let time else { return value }
            return time.isNegative ? (length ?? 0) + time.nanoseconds : time.nanoseconds
        }
        let from = max(0, resolve(start, default: 0))
        let until = resolve(end, default: length ?? Int64.max)
        guard from < until, let window = blocks.window(start: max(from, first), end: until, cost: &cost) else {
            return nil
        }
        cost.bytesRead = blocks.bytesRead
        let frames = frames(window.map(\.timing), idr: window.map(\.isIDR))
        guard !frames.isEmpty, let mediaType = opening.caps.mediaType else { return nil }
        let audio = opening.streams.first { $0.kind == .audio }
        var index = FrameIndex(
            container: .matroska, video: frames, videoCaps: opening.caps.description, videoMediaType: mediaType,
            codecData: opening.caps.bytes("codec_data"), audio: [], audioMediaType: audio?.mediaType,
            audioCaps: audio?.caps, audioPresentationOffset: 0, presentationOffset: 0, streams: opening.streams
        )
        index.wholeVideoEnd = length
        let layout = MatroskaFrameBlocks(videoTrack: blocks.header.videoTrack, blocks: window)
        return (GStreamerInput(path: path, index: index, seeks: true, matroska: layout), cost)
    }

    /// The video caps and the other streams, from the demuxer's first video frame.
    private static func firstFrameAndStreams(
        path: String, control: TrimControl
    ) throws(CamrecError) -> (caps: Caps, streams: [DemuxedStream])? {
        do {
            let reader = try MovieReader(path: path, container: .matroska, codec: nil, control: control)
            defer { reader.stop() }
            try reader.start(at: nil)
            guard let caps = try reader.nextVideo()?.caps else { return nil }
            return (caps, reader.demuxerPads.streams(container: .matroska))
        } catch let error as CamrecError where error.kind == .stalled || error.kind == .interrupted {
            throw error
        } catch {
            return nil
        }
    }
}

import CamrecCore
import GStreamer

/// A ``GStreamerInput``'s samples, read in one pass: its video frames in decode order from
/// a planned frame on, as whole access units, each with its decode index in the input's
/// ``FrameIndex``; and the packets of its other streams, through ``reader``, as they come alongside.
final class DemuxedSamples {
    /// The demuxing pipeline (its sound and subtitle branches are read directly).
    let reader: MovieReader
    private let frames: [VideoFrame]
    /// Decode index of the next frame ``next()`` returns.
    private(set) var nextIndex: Int
    /// Whether the reader has reached the first planned frame.
    private var positioned = false
    /// AVI: the times the file stores, in decode order (the sorted presentation times of
    /// the index: ``MPEG4FrameOrder``). Frames are found by them (the demuxer gives
    /// presentation times to keyframes only) and given the index's presentation times, and
    /// no decoding time: a B-frame's stored time is one frame later than the time it is
    /// shown at, and a buffer whose DTS is later than its PTS has its PTS replaced by its
    /// DTS by `mpeg4videoparse`, so that two decoded frames share a time and the
    /// re-encoder's window keeps the wrong ones. The writers give every frame its DTS.
    private let storedTimes: [Int64]?

    /// Starts reading `input` at its frame `first`: seeks there, or `lead` nanoseconds
    /// earlier (the other streams' packets that start before the frame, such as a subtitle
    /// cue shown across it, come only from there), unless that opens the movie (a window
    /// index starts anywhere). Frames before `first` are skipped.
    init(
        input: GStreamerInput, from first: Int, codec: TrimCodec, streams: [String], lead: Int64 = 0,
        control: TrimControl
    ) throws {
        frames = input.index.video
        nextIndex = first
        storedTimes = input.index.container == .avi ? input.index.video.map(\.pts).sorted() : nil
        reader = try MovieReader(
            path: input.path, container: input.index.container, codec: codec, streams: streams, control: control
        )
        let target = frames[first].pts - input.index.presentationOffset - max(0, lead)
        try reader.start(at: target > 0 && input.seeks ? UInt64(target) : nil)
    }

    /// The next video frame and its decode index. Throws when the input ends first or the
    /// demuxer cannot be positioned on the first planned frame.
    func next() throws -> (index: Int, sample: Sample, buffer: Buffer) {
        while true {
            guard let sample = try reader.nextVideo(), var buffer = sample.buffer else {
                throw CamrecError.failed("the input ended before frame \(nextIndex) of \(frames.count)")
            }
            if !positioned {
                // The demuxer may start a little earlier than asked: skip to the planned frame.
                let first = storedTimes?[nextIndex] ?? frames[nextIndex].pts
                guard let time = (storedTimes == nil ? buffer.pts : buffer.dts).map(Int64.init), time >= first else { continue }
                guard time == first else {
                    throw CamrecError.failed("the input could not be positioned on the frame at \(first) ns")
                }
                positioned = true
            }
            if let storedTimes {
                guard nextIndex < frames.count, buffer.dts.map(Int64.init) == storedTimes[nextIndex] else {
                    throw CamrecError.failed("the input's frame \(nextIndex) is not where its index has it")
                }
                let pts = UInt64(max(0, frames[nextIndex].pts))
                guard let stamped = buffer.edited({ $0.pts = pts; $0.dts = nil }) else {
                    throw CamrecError.failed("out of memory for frame \(nextIndex)'s times")
                }
                buffer = stamped
            }
            nextIndex += 1
            return (nextIndex - 1, sample, buffer)
        }
    }

    /// Stops the pipeline.
    func stop() { reader.stop() }
}

import Foundation
import GStreamer
import Synchronization

/// One compressed audio packet (times in nanoseconds on the demuxer's buffer timeline).
public struct AudioPacket: Sendable, Equatable {
    /// Presentation time.
    public var pts: Int64
    /// Duration (0 when unknown).
    public var duration: Int64
}

/// What a demux-only pass learns about a movie: every video frame and audio packet with
/// its times and flags, the streams' caps, and how buffer times map to presentation times.
public struct FrameIndex: Sendable {
    /// The container.
    public var container: MediaContainer
    /// Video frames in decode order.
    public var video: [VideoFrame]
    /// The video caps as the demuxer gave them (e.g. "video/x-h264, stream-format=avc, ...").
    public var videoCaps: String
    /// The video media type, e.g. "video/x-h264".
    public var videoMediaType: String
    /// The decoder configuration record (`codec_data`), when the container has one.
    public var codecData: [UInt8]?
    /// Audio packets in order (empty when there is no audio).
    public var audio: [AudioPacket]
    /// The audio media type, e.g. "audio/mpeg"; nil without audio.
    public var audioMediaType: String?
    /// The audio caps as the demuxer gave them; nil without audio.
    public var audioCaps: String?
    /// Like ``presentationOffset``, for the audio track (its own edit list).
    public var audioPresentationOffset: Int64
    /// Buffer time minus presentation time (the demuxer's segment start minus its stream
    /// time): how an input's edit list shifts its timeline.
    public var presentationOffset: Int64

    /// The end of the last video frame on the presentation timeline.
    public var videoEnd: Int64 {
        (video.map { $0.pts + $0.duration }.max() ?? 0) - presentationOffset
    }

    /// Indexes `path` with a demux-only pass (nothing is decoded).
    ///
    /// - Parameter control: bounds the pass (a demuxer that stops producing buffers for the
    ///   stall timeout has stalled), stops it on cancellation, and takes progress reports.
    /// - Throws: ``CamrecError`` (invalid input) for anything that is not a movie with video;
    ///   `stalled` or `interrupted` as above.
    public static func build(path: String, control: TrimControl = TrimControl()) throws(CamrecError) -> FrameIndex {
        try build(path: path, control: control, reportingProgress: true)
    }

    /// Indexes `path`; `reportingProgress` false for a check of the output, which is no phase of its own.
    static func build(path: String, control: TrimControl, reportingProgress: Bool) throws(CamrecError) -> FrameIndex {
        let container = try MediaContainer.identify(path: path)
        let collector = IndexCollector()
        let name = (path as NSString).lastPathComponent
        do {
            let pipeline = try Pipeline()
            let source = try Element.make("filesrc", name: "source")
            try source.set("location", path)
            let demuxer = try Element.make(container.demuxer, name: "demuxer")
            try pipeline.add(source)
            try pipeline.add(demuxer)
            try source.link(demuxer)
            let token = demuxer.onPadAdded { pad in collector.attach(pad, to: pipeline) }
            defer {
                token.disconnect()
                _ = try? pipeline.setState(.null)
            }
            try pipeline.setStateThrowingPostedError(.playing)
            try PipelineRunner.waitForEndOfStream(
                pipeline, watch: control.watch("the demuxer (indexing \(name))"),
                progress: { Int64(collector.recordedCount) },
                poll: {
                    if reportingProgress, let position = pipeline.position(), let duration = pipeline.queryDuration(), duration > 0 {
                        control.report(TrimProgress(phase: .indexing, done: Int64(position), total: Int64(duration)))
                    }
                }
            )
            collector.finish()
        } catch let error as CamrecError {
            throw error
        } catch let error as GStreamerError {
            throw CamrecError.from(error, reading: name)
        } catch {
            throw CamrecError.invalidInput("cannot read \(name): \(error)")
        }
        return try collector.index(container: container, name: name)
    }
}

extension CamrecError {
    /// Maps a GStreamer failure while reading an input to an invalid-input error, keeping
    /// missing plugins apart.
    static func from(_ error: GStreamerError, reading name: String) -> CamrecError {
        switch error {
        case .missingElement: CamrecError(.unavailable, error.description)
        case .element(let failure): .invalidInput("cannot read \(name): \(failure.message)")
        default: .invalidInput("cannot read \(name): \(error.description)")
        }
    }
}

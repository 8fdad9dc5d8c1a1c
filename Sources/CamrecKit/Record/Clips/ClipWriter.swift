import FoundationEssentials
import GStreamer

/// Writes one event clip's packets (already encoded: nothing is decoded) into a file of its
/// own: `appsrc ! muxer ! filesink`, the muxer the movie's (hybrid MP4, crash-safe as a
/// movie is, or Matroska). Packets are restamped so that the clip starts at 0 with its
/// first packet (a keyframe).
final class ClipWriter: @unchecked Sendable {
    private let pipeline: Pipeline
    private let source: AppSrc
    private let stopper: PipelineStopper
    /// The first packet's time on the recording's timeline: the clip's 0.
    let base: UInt64
    /// The file written.
    let path: String
    /// Each packet's time in the file (ns from `base`), in the order pushed.
    private(set) var times: [UInt64] = []
    /// Packets pushed.
    var packets: Int { times.count }

    /// A writer into `path` with `muxer` (gst-launch syntax, e.g. the movie's muxer), for
    /// packets of `caps` whose first is at `base`.
    init(path: String, muxer: String, caps: Caps, base: UInt64) throws(CamrecError) {
        self.path = path
        self.base = base
        let location = "\"" + RecordPipeline.escapeForParser(path) + "\""
        do {
            pipeline = try Pipeline.parse("appsrc name=clipsrc format=time ! \(muxer) ! filesink location=\(location)")
            source = try AppSrc(pipeline.element(named: "clipsrc"))
            source.setCaps(caps)
            stopper = PipelineStopper(pipeline)
            try pipeline.setState(.playing)
        } catch {
            throw CamrecError(.failure, "cannot start writing the clip \(path): \(error)")
        }
    }

    /// Pushes one packet (its timestamps moved so that `base` is 0, on a copy of its
    /// metadata: the pre-roll keeps the original); never blocks.
    func push(_ packet: Buffer) {
        let buffer = Buffer(packet.bufferPointer, transfer: .none)
        if let pts = buffer.pts { buffer.pts = pts >= base ? pts - base : 0 }
        if let dts = buffer.dts { buffer.dts = dts >= base ? dts - base : 0 }
        source.push(buffer)
        times.append(buffer.pts ?? 0)
    }

    /// Ends the clip: the muxer finalises the file (waited for, at most `seconds`), then
    /// the pipeline stops. True when the file was finalised.
    func finish(within seconds: Double = 30) -> Bool {
        _ = source.endOfStream()
        var finalised = false
        if let bus = pipeline.bus {
            let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
            waiting: while ContinuousClock.now < deadline {
                switch bus.pop(timeoutNanoseconds: 100_000_000) {
                case .endOfStream?:
                    finalised = true
                    break waiting
                case .error?:
                    break waiting
                default:
                    continue
                }
            }
        }
        _ = stopper.stop()
        return finalised
    }
}

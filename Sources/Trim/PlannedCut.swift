import CamrecCore
import GStreamer

/// What a trim will do, the third stage of ``Trimmer``: the plan over the input's frames,
/// the codec it copies or re-encodes, and how re-encoded frames are made. A codec whose
/// edges cannot be re-encoded in the source's own format here (no encoder for it, or not in
/// its bit depth or chroma) falls back from `accurate` to a keyframe cut, and says why;
/// all-intra video (MJPEG, ProRes …) is cut accurately by copying alone.
struct PlannedCut: Sendable {
    /// The input's video codec.
    let codec: TrimCodec
    /// Which frames are copied and which re-encoded.
    let plan: TrimPlan
    /// Why the mode used differs from the one asked for, if it does.
    let fallbackReason: String?
    /// How the re-encoded frames are made; nil when nothing is re-encoded.
    let encoding: VideoEncoding?

    /// Plans the cut `times` of the input indexed by `index` (named `name` in messages).
    ///
    /// - Throws: invalid input for a cut with no frame (or, in keyframe mode, no keyframe) in it.
    static func make(index: FrameIndex, times: CutTimes, mode: TrimMode, name: String) throws(CamrecError) -> PlannedCut {
        let codec = TrimCodec.forIndex(index)
        let (start, end) = times.bufferTimes(presentationOffset: index.presentationOffset)
        let planner = SmartCutPlanner(frames: index.video)
        let plan = try planner.plan(start: start, end: end, mode: mode)
        guard plan.encodes else { return PlannedCut(codec: codec, plan: plan, fallbackReason: nil, encoding: nil) }
        let caps = try? Caps(index.videoCaps)
        if plan.mode == .reencode {
            let encoding = VideoEncoding.whole(
                from: codec, caps: caps, codecData: index.codecData, framesPerSecond: averageFrameRate(index.video)
            )
            return PlannedCut(codec: codec, plan: plan, fallbackReason: nil, encoding: encoding)
        }
        do {
            let encoding = try VideoEncoding.edges(of: codec, caps: caps, codecData: index.codecData)
            return PlannedCut(codec: codec, plan: plan, fallbackReason: nil, encoding: encoding)
        } catch {
            return try keyframeFallback(
                codec: codec, planner: planner, start: start, end: end, because: error.reason
            )
        }
    }

    /// Frames a second over a video's span (for a level when the caps give no rate); nil
    /// for fewer than two frames.
    static func averageFrameRate(_ frames: [VideoFrame]) -> Double? {
        guard frames.count >= 2, let first = frames.map(\.pts).min(),
              let last = frames.map({ $0.pts + $0.duration }).max(), last > first
        else { return nil }
        return Double(frames.count) * 1e9 / Double(last - first)
    }

    /// The cut at keyframes instead of an accurate one, because the edges cannot be
    /// re-encoded in the source's format: `reason` says why.
    static func keyframeFallback(
        codec: TrimCodec, planner: SmartCutPlanner, start: Int64, end: Int64, because reason: String
    ) throws(CamrecError) -> PlannedCut {
        PlannedCut(
            codec: codec, plan: try planner.plan(start: start, end: end, mode: .keyframe),
            fallbackReason: "\(codec.displayName) cannot be re-encoded frame-accurately here (\(reason)): cut at"
                + " keyframes (use --mode reencode to re-encode to H.264)",
            encoding: nil
        )
    }

    /// This cut made at keyframes instead, after its edges turned out not to be encodable
    /// (the encoder refused the decoded format).
    func fallingBackToKeyframes(index: FrameIndex, times: CutTimes, because reason: String) throws(CamrecError) -> PlannedCut {
        let (start, end) = times.bufferTimes(presentationOffset: index.presentationOffset)
        return try Self.keyframeFallback(
            codec: codec, planner: SmartCutPlanner(frames: index.video), start: start, end: end, because: reason
        )
    }
}

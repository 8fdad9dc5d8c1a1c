/// What a trim will do, the third stage of ``Trimmer``: the plan over the input's frames
/// and the codec it copies or re-encodes. A codec that cannot be re-encoded frame-accurately
/// here (HEVC, MPEG-4 Part 2) falls back from `accurate` to a keyframe cut, and says why;
/// all-intra video (MJPEG) is cut accurately by copying alone.
struct PlannedCut: Sendable {
    /// The input's video codec.
    let codec: VideoCodec
    /// Which frames are copied and which re-encoded.
    let plan: TrimPlan
    /// Why the mode used differs from the one asked for, if it does.
    let fallbackReason: String?

    /// Plans the cut `times` of the input indexed by `index` (named `name` in messages).
    ///
    /// - Throws: invalid input for a video codec trim does not handle, or a cut with no frame
    ///   (or, in keyframe mode, no keyframe) in it.
    static func make(index: FrameIndex, times: CutTimes, mode: TrimMode, name: String) throws(CamrecError) -> PlannedCut {
        let codec = try VideoCodec.forIndex(index, name: name)
        let (start, end) = times.bufferTimes(presentationOffset: index.presentationOffset)
        let planner = SmartCutPlanner(frames: index.video)
        let plan = try planner.plan(start: start, end: end, mode: mode)
        guard !codec.smartCut, plan.mode == .accurate, plan.encodes else {
            return PlannedCut(codec: codec, plan: plan, fallbackReason: nil)
        }
        return PlannedCut(
            codec: codec, plan: try planner.plan(start: start, end: end, mode: .keyframe),
            fallbackReason: "\(codec.displayName) cannot be re-encoded frame-accurately here: cut at keyframes"
                + " (use --mode reencode to re-encode to H.264)"
        )
    }
}

/// Where an event clip starts (`--clip-start`; `keyframe` by default, issue 37: the exact
/// cut loads gst-libav, +100 MB of peak memory, for at most one keyframe interval of head).
public enum ClipStart: String, Sendable, Equatable, CaseIterable {
    /// At the frame its pre-roll asks for: the frames from the keyframe before it are cut
    /// away, those up to the next keyframe re-encoded (as `camrec trim` cuts, decoding with
    /// gst-libav).
    case exact
    /// At the keyframe at or before the frame its pre-roll asks for: the encoded frames are
    /// copied as they are, nothing is decoded, and the clip's line says where it starts
    /// (up to one keyframe interval, `--keyframe-interval`, earlier).
    case keyframe
}

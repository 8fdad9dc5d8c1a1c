/// How a trim treats the video at the cut points.
public enum TrimMode: String, Sendable, Codable, CaseIterable {
    /// Frame-exact: re-encode only the partial GOPs at the edges, copy the rest bit-exact.
    case accurate
    /// Pure stream copy from the keyframe at or before the start (times snap to keyframes).
    case keyframe
    /// Re-encode every frame of the cut (to H.264).
    case reencode
}

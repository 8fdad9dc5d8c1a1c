import CGStreamer

/// An element's state.
public enum State: Sendable, Equatable, CustomStringConvertible {
    /// No state (no change pending).
    case voidPending
    /// The initial state: no resources held.
    case null
    /// Resources allocated (a device opened), no data flowing.
    case ready
    /// Data flows up to the sinks, which hold it (prerolled).
    case paused
    /// Data flows and the clock runs.
    case playing

    init(_ state: GstState) {
        switch state {
        case GST_STATE_NULL: self = .null
        case GST_STATE_READY: self = .ready
        case GST_STATE_PAUSED: self = .paused
        case GST_STATE_PLAYING: self = .playing
        default: self = .voidPending
        }
    }

    var gstState: GstState {
        switch self {
        case .voidPending: GST_STATE_VOID_PENDING
        case .null: GST_STATE_NULL
        case .ready: GST_STATE_READY
        case .paused: GST_STATE_PAUSED
        case .playing: GST_STATE_PLAYING
        }
    }

    /// GStreamer's name of the state ("PLAYING").
    public var description: String {
        switch self {
        case .voidPending: "VOID_PENDING"
        case .null: "NULL"
        case .ready: "READY"
        case .paused: "PAUSED"
        case .playing: "PLAYING"
        }
    }
}

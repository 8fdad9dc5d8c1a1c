import CGStreamer

/// An element's state.
public enum State: Sendable, Equatable, CustomStringConvertible {
    case voidPending, null, ready, paused, playing

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

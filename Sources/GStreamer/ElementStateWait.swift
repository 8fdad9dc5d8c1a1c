import CGStreamer

/// How waiting for a state change ended.
public enum StateWaitResult: Sendable, Equatable {
    /// The element reached the state it was asked for.
    case reached(State)
    /// Still changing when the time-out ran out.
    case stillChanging
    /// The change failed (the bus carries the element's error).
    case failed
}

extension Element {
    /// Waits up to `timeoutNanoseconds` for a pending (asynchronous) state change to finish.
    public func waitForStateChange(timeoutNanoseconds: UInt64) -> StateWaitResult {
        var current = GST_STATE_VOID_PENDING
        var pending = GST_STATE_VOID_PENDING
        let result = gst_element_get_state(elementPointer, &current, &pending, GstClockTime(timeoutNanoseconds))
        switch result {
        case GST_STATE_CHANGE_FAILURE: return .failed
        case GST_STATE_CHANGE_ASYNC: return .stillChanging
        default: return .reached(State(current))
        }
    }

    /// Brings an element added to a running bin to its parent's state.
    @discardableResult
    public func syncStateWithParent() -> Bool {
        gst_element_sync_state_with_parent(elementPointer) != 0
    }
}

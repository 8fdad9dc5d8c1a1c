import CGStreamer

/// A `GstEvent` we own until it is sent (sending transfers it to GStreamer).
public final class Event: @unchecked Sendable {
    private var pointer: UnsafeMutablePointer<GstEvent>?

    private init(_ pointer: UnsafeMutablePointer<GstEvent>) { self.pointer = pointer }

    /// End of stream: muxers finalise their files when it reaches them.
    public static func endOfStream() -> Event {
        // gst_event_new_eos never fails.
        Event(gst_event_new_eos())
    }

    /// Hands the event's reference over (to a send call); the wrapper is empty afterwards.
    func take() -> UnsafeMutablePointer<GstEvent>? {
        defer { pointer = nil }
        return pointer
    }

    deinit {
        if let pointer {
            gst_mini_object_unref(UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: GstMiniObject.self))
        }
    }
}

import CGStreamer
import CGStreamerShim

/// A pipeline's `GstBus`. Read it from one dedicated thread with `pop(timeoutNanoseconds:)`:
/// the call blocks, so it never belongs on the Swift concurrency pool.
public final class Bus: Object, @unchecked Sendable {
    /// The wrapped bus.
    public var busPointer: UnsafeMutablePointer<GstBus> {
        UnsafeMutableRawPointer(objectPointer).assumingMemoryBound(to: GstBus.self)
    }

    /// Wraps a bus pointer with the given transfer.
    public init(_ pointer: UnsafeMutablePointer<GstBus>, transfer: Transfer) {
        super.init(UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: GstObject.self), transfer: transfer)
    }

    /// Waits up to `timeoutNanoseconds` for the next message (nil on time-out).
    /// `nil` timeout waits for ever.
    public func pop(timeoutNanoseconds: UInt64?) -> Message? {
        let timeout = GstClockTime(timeoutNanoseconds ?? UInt64.max)  // max is GST_CLOCK_TIME_NONE
        guard let message = gst_bus_timed_pop_filtered(busPointer, timeout, camrec_message_mask_all()) else {
            return nil
        }
        defer { gst_mini_object_unref(UnsafeMutableRawPointer(message).assumingMemoryBound(to: GstMiniObject.self)) }
        return Message(parsing: message)
    }

    /// Calls `callback` on the posting thread with each message of `type` (GStreamer's
    /// name: "error", "eos", "warning", …; nil for all) as it is posted, through the bus's
    /// "sync-message" signal. The message also stays queued for the bus's reader: this
    /// only lets another thread wake up (e.g. a reader blocked on an appsink when an error
    /// stops the stream). Keep the callback short and never block. The token disconnects
    /// the handler and stops the emission it needed.
    public func onSyncMessage(
        _ type: String? = nil, _ callback: @escaping @Sendable (Message) -> Void
    ) -> SignalToken {
        gst_bus_enable_sync_message_emission(busPointer)
        let signal = type.map { "sync-message::\($0)" } ?? "sync-message"
        return connectClosure(signal, then: { [self] in gst_bus_disable_sync_message_emission(busPointer) }) { arguments in
            if let message = arguments.message(1) { callback(message) }
            return .none
        }
    }

    /// Posts an application message named `name` (thread-safe; used to wake the thread
    /// that reads the bus from signal handlers and pad probes).
    @discardableResult
    public func postApplicationMessage(_ name: String) -> Bool {
        guard let structure = gst_structure_new_empty(name),
              let message = gst_message_new_application(nil, structure)
        else { return false }
        return gst_bus_post(busPointer, message) != 0
    }
}

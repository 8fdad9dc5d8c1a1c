import CGStreamer
import CGStreamerShim

extension Element {
    /// Emits the action signal `name` with one 64-bit unsigned argument (splitmuxsink's
    /// `split-at-running-time`). Safe from any thread, including a streaming thread.
    /// Throws `.signal` when the element has no such signal.
    public func emitAction(_ name: String, _ value: UInt64) throws(GStreamerError) {
        guard camrec_emit_action_uint64(UnsafeMutableRawPointer(elementPointer), name, guint64(value)) != 0 else {
            throw .signal(object: self.name, name: name)
        }
    }

    /// Emits the action signal `name` without arguments (splitmuxsink's `split-now`).
    /// Throws `.signal` when the element has no such signal.
    public func emitAction(_ name: String) throws(GStreamerError) {
        guard camrec_emit_action(UnsafeMutableRawPointer(elementPointer), name) != 0 else {
            throw .signal(object: self.name, name: name)
        }
    }
}

extension Pad {
    /// Sends `event` into this pad (an upstream event into a source pad, a downstream one
    /// into a sink pad); the event is handed over. Returns whether it was handled.
    @discardableResult
    public func send(_ event: Event) -> Bool {
        guard let pointer = event.take() else { return false }
        return gst_pad_send_event(padPointer, pointer) != 0
    }
}

extension Event {
    /// An upstream "force key unit" request: the encoder makes the first frame whose
    /// running time is at or after `runningTime` a keyframe, with its headers (SPS/PPS)
    /// in front, so that a file starting there plays on its own. Send it into the
    /// encoder's source pad before that frame reaches the encoder.
    public static func forceKeyUnit(atRunningTime runningTime: UInt64) -> Event? {
        guard let pointer = gst_video_event_new_upstream_force_key_unit(GstClockTime(runningTime), 1, 0) else {
            return nil
        }
        return Event(taking: pointer)
    }
}

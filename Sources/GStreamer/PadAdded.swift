import CGStreamer
import CGStreamerShim

/// A connected signal handler; `disconnect()` (or dropping the last reference) removes it.
public final class SignalToken: Sendable {
    private let removal: OnceAction

    init(object: Object, id: gulong) {
        removal = OnceAction { [object] in
            g_signal_handler_disconnect(UnsafeMutableRawPointer(object.objectPointer), id)
        }
    }

    /// Disconnects the handler; safe to call more than once.
    public func disconnect() { removal.run() }

    deinit { disconnect() }
}

/// Holds a pad-added callback for the C side; released once, by the closure's destroy notify.
private final class PadAddedBox {
    let callback: @Sendable (Pad) -> Void
    init(_ callback: @escaping @Sendable (Pad) -> Void) { self.callback = callback }
}

private typealias PadAddedCallback = @convention(c) (
    UnsafeMutableRawPointer?, UnsafeMutablePointer<GstPad>?, UnsafeMutableRawPointer?
) -> Void

extension Element {
    /// Calls `callback` with each pad the element creates while running (demuxers,
    /// decodebin). Runs on a streaming thread: link and return, never block.
    public func onPadAdded(_ callback: @escaping @Sendable (Pad) -> Void) -> SignalToken {
        let box = Unmanaged.passRetained(PadAddedBox(callback)).toOpaque()
        let handler: PadAddedCallback = { _, pad, userData in
            guard let pad, let userData else { return }
            let box = Unmanaged<PadAddedBox>.fromOpaque(userData).takeUnretainedValue()
            box.callback(Pad(pad, transfer: .none))
        }
        let id = camrec_signal_connect(
            UnsafeMutableRawPointer(objectPointer), "pad-added",
            unsafeBitCast(handler, to: GCallback.self), box,
            { userData, _ in
                guard let userData else { return }
                Unmanaged<PadAddedBox>.fromOpaque(userData).release()
            }
        )
        return SignalToken(object: self, id: id)
    }
}

import CGStreamer
import Synchronization

/// The appsink that calls a callback, borrowed for the duration of the call.
public struct AppSinkView {
    private let sink: UnsafeMutablePointer<GstAppSink>

    init(_ sink: UnsafeMutablePointer<GstAppSink>) { self.sink = sink }

    /// The next queued sample, without waiting (in `newSample`, the one announced).
    public func pullSample() -> Sample? {
        gst_app_sink_try_pull_sample(sink, 0).map { Sample($0, transfer: .full) }
    }

    /// Whether the sink has received end of stream.
    public var isEndOfStream: Bool { gst_app_sink_is_eos(sink) != 0 }
}

/// Installed `AppSink` callbacks; `remove()` (or dropping the last reference) uninstalls
/// them, and GStreamer then releases them (at once, or when a call in progress returns).
public final class AppSinkCallbacksToken: Sendable {
    private let removal: OnceAction

    init(removal: OnceAction) { self.removal = removal }

    /// Uninstalls the callbacks, unless others replaced them meanwhile; safe to call more
    /// than once, from any thread.
    public func remove() { removal.run() }

    deinit { remove() }
}

/// Holds the Swift callbacks for the C side; released exactly once, by the destroy notify
/// GStreamer calls when the callbacks are replaced or the appsink is finalised.
private final class AppSinkCallbackBox: Sendable {
    let newSample: (@Sendable (AppSinkView) -> FlowResult)?
    let endOfStream: (@Sendable () -> Void)?

    init(newSample: (@Sendable (AppSinkView) -> FlowResult)?, endOfStream: (@Sendable () -> Void)?) {
        self.newSample = newSample
        self.endOfStream = endOfStream
    }
}

/// Which callbacks each appsink has from us, so that a token removes only its own: an
/// appsink has one set of callbacks, and installing new ones replaces the old.
private let installedCallbacks = Mutex<[UInt: ObjectIdentifier]>([:])

extension AppSink {
    /// Installs callbacks, called on the streaming thread: `newSample` when a sample is
    /// queued (it may pull it through the view, or leave it for `pullSample` on another
    /// thread), `endOfStream` when the stream has ended. They let a reader block on data
    /// instead of polling. Keep them short and never block: return `.ok` to go on.
    ///
    /// An appsink has one set of callbacks: installing replaces the set installed before
    /// (whose token then does nothing). The token uninstalls them.
    public func setCallbacks(
        newSample: (@Sendable (AppSinkView) -> FlowResult)? = nil,
        endOfStream: (@Sendable () -> Void)? = nil
    ) -> AppSinkCallbacksToken {
        let box = AppSinkCallbackBox(newSample: newSample, endOfStream: endOfStream)
        let identity = ObjectIdentifier(box)
        let key = UInt(bitPattern: objectPointer)
        var callbacks = GstAppSinkCallbacks()
        if newSample != nil {
            callbacks.new_sample = { sink, userData in
                guard let sink, let userData else { return GST_FLOW_OK }
                let box = Unmanaged<AppSinkCallbackBox>.fromOpaque(userData).takeUnretainedValue()
                return box.newSample?(AppSinkView(sink)).gstValue ?? GST_FLOW_OK
            }
        }
        if endOfStream != nil {
            callbacks.eos = { _, userData in
                guard let userData else { return }
                Unmanaged<AppSinkCallbackBox>.fromOpaque(userData).takeUnretainedValue().endOfStream?()
            }
        }
        // Callbacks replaced here are released under the lock; their token still holds them.
        installedCallbacks.withLock { installed in
            installed[key] = identity
            gst_app_sink_set_callbacks(
                sinkPointer, &callbacks, Unmanaged.passRetained(box).toOpaque(),
                { userData in
                    guard let userData else { return }
                    Unmanaged<AppSinkCallbackBox>.fromOpaque(userData).release()
                }
            )
        }
        // The removal keeps the appsink alive until the callbacks are gone, and the box until
        // after the lock: GStreamer's release of the box (in set_callbacks, under the lock)
        // is then never the last one, so no captured object is deinitialised under the lock.
        return AppSinkCallbacksToken(removal: OnceAction { [self, box] in
            _ = box
            installedCallbacks.withLock { installed in
                guard installed[key] == identity else { return }
                installed[key] = nil
                var none = GstAppSinkCallbacks()
                gst_app_sink_set_callbacks(sinkPointer, &none, nil, nil)
            }
        })
    }
}

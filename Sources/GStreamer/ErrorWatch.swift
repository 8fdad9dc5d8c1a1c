import Synchronization

/// The first error posted on a bus from the moment the watch starts, seen as it is posted
/// (the bus's "sync-message::error" signal, on the posting thread) and left queued: every
/// message, that error included, stays on the bus for its reader. For code that needs to
/// know why something failed without reading the bus itself (a refused state change or
/// push), where popping would take messages away from the reader.
///
/// An error posted before the watch starts is not seen (it waits on the bus).
public final class ErrorWatch: Sendable {
    private let first: FirstFailure
    private let token: SignalToken?

    /// Watches `bus`; `then` runs after each error is noted, on the posting thread (keep it
    /// short and never block, as for `Bus.onSyncMessage`).
    public init(_ bus: Bus, then: @escaping @Sendable (ElementFailure) -> Void = { _ in }) {
        let first = FirstFailure()
        self.first = first
        token = bus.onSyncMessage("error") { message in
            guard case .error(let failure) = message else { return }
            first.note(failure)
            then(failure)
        }
    }

    /// Watches the bus of `element`'s pipeline; one not in a pipeline has no bus, and its
    /// watch sees nothing.
    public convenience init(errorsOf element: Element, then: @escaping @Sendable (ElementFailure) -> Void = { _ in }) {
        if let bus = element.bus {
            self.init(bus, then: then)
        } else {
            self.init(watching: nil)
        }
    }

    private init(watching token: SignalToken?) {
        first = FirstFailure()
        self.token = token
    }

    /// The first error posted since the watch started; nil while there is none.
    public var failure: ElementFailure? { first.value }

    /// Stops watching (also done when the watch goes); the error seen stays. Safe to call
    /// more than once, from any thread.
    public func stop() { token?.disconnect() }

    deinit { stop() }
}

/// The first failure noted, shared with the signal handler.
private final class FirstFailure: Sendable {
    private let stored = Mutex<ElementFailure?>(nil)

    var value: ElementFailure? { stored.withLock { $0 } }

    func note(_ failure: ElementFailure) {
        stored.withLock { if $0 == nil { $0 = failure } }
    }
}

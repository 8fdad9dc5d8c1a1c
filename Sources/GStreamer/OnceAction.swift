import Synchronization

/// An action that runs at most once, from whichever thread asks first: the undoing of a
/// registration (a pad probe, a signal handler), done explicitly or when its token goes.
final class OnceAction: Sendable {
    private let action: Mutex<(@Sendable () -> Void)?>

    init(_ action: @escaping @Sendable () -> Void) { self.action = Mutex(action) }

    /// Runs the action the first time; later calls do nothing.
    func run() {
        let pending = action.withLock { action -> (@Sendable () -> Void)? in
            defer { action = nil }
            return action
        }
        pending?()
    }
}

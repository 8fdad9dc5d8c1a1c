import Foundation

/// Waits for a condition, checking often, with a generous bound: tests wait for what they
/// need to see (a count, a released object), never for a fixed time.
enum Wait {
    /// True as soon as `condition` holds; false when it still does not after `timeout` seconds.
    static func until(timeout: TimeInterval = 30, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition() { return true }
            Thread.sleep(forTimeInterval: 0.005)
        }
        return condition()
    }
}

/// An object a callback captures, to tell (through a weak reference) when the callback
/// itself has been released.
final class Canary: Sendable {}

/// A weak reference to a `Canary`.
final class CanaryWatch: @unchecked Sendable {
    private(set) weak var canary: Canary?
    init(_ canary: Canary) { self.canary = canary }
    var isAlive: Bool { canary != nil }
}

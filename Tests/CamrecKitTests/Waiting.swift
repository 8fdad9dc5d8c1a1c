import Foundation

/// Waits for a condition, checking often, with a generous bound: tests wait for what they
/// need to see (a call, a count, a file), never for a fixed time.
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

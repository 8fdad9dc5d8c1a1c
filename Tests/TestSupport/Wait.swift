import Foundation

/// Waits for a condition, checking often, with a generous bound: tests wait for what they
/// need to see (a call, a count, a file, a JSON line), never for a fixed time. The one wait
/// of every test target.
public enum Wait {
    /// True as soon as `condition` holds; false when it still does not after `timeout`
    /// seconds. `interval` is how long to wait between two checks.
    public static func until(timeout: TimeInterval = 30, interval: TimeInterval = 0.05, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition() { return true }
            Thread.sleep(forTimeInterval: interval)
        }
        return condition()
    }
}

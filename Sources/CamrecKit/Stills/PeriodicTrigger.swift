import Foundation

/// Calls an action every `period` (the first call one period after start) on a thread of
/// its own, until stopped. Periods are counted from the start, so they do not drift.
final class PeriodicTrigger: @unchecked Sendable {
    private let condition = NSCondition()
    private var stopped = false

    init(every period: TimeSpec, action: @escaping @Sendable () -> Void) {
        let start = Date()
        let seconds = max(period.seconds, 0.001)
        let thread = Thread { [self] in
            var count = 1
            while true {
                let due = start.addingTimeInterval(seconds * Double(count))
                let keepGoing = condition.withLock {
                    while !stopped && Date() < due { _ = condition.wait(until: due) }
                    return !stopped
                }
                guard keepGoing else { return }
                action()
                count += 1
            }
        }
        thread.name = "camrec-still-timer"
        thread.start()
    }

    /// Stops it; safe to call more than once.
    func stop() {
        condition.withLock {
            stopped = true
            condition.broadcast()
        }
    }
}

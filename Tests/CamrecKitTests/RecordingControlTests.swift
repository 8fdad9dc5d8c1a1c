@testable import CamrecKit
import Foundation
import Synchronization
import Testing

/// The recorder's wait for a lost camera wakes on a stop request, not at the next poll.
@Suite struct RecordingControlTests {
    @Test func aStopRequestedMeanwhileEndsTheWait() {
        let control = RecordingControl()
        let returned = Flag()
        let waiter = Thread {
            // An hour: only the stop request can end this wait within the test's bound.
            control.waitForStop(upTo: .seconds(3600))
            returned.set()
        }
        waiter.start()
        #expect(!returned.isSet)
        control.requestStop(.signal)
        #expect(Wait.until { returned.isSet }, "the wait did not end on the stop request")
    }

    @Test func aStopAlreadyRequestedDoesNotWaitAtAll() {
        let control = RecordingControl()
        control.requestStop(.control)
        control.requestStop(.signal)
        // Would take an hour if the pending stop were not seen.
        control.waitForStop(upTo: .seconds(3600))
        #expect(control.pendingStop.count == 2 && control.pendingStop.reason == .control)
    }
}

/// A flag one thread sets and another reads.
private final class Flag: Sendable {
    private let value = Atomic<Bool>(false)
    func set() { value.store(true, ordering: .sequentiallyConsistent) }
    var isSet: Bool { value.load(ordering: .sequentiallyConsistent) }
}

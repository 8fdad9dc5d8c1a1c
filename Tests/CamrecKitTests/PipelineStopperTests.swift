@testable import CamrecKit
import Foundation
import GStreamer
import Synchronization
import Testing

/// Stopping a recording's pipeline is bounded: a streaming thread that never returns
/// cannot hold camrec for ever.
@Suite("PipelineStopper")
struct PipelineStopperTests {
    @Test("a pipeline that stops: true at once, and again on a second call")
    func stops() throws {
        let pipeline = try Pipeline.parse("fakesrc is-live=true ! fakesink")
        _ = try pipeline.setState(.playing)
        let stopper = PipelineStopper(pipeline)
        #expect(stopper.stop(within: 30))
        #expect(!stopper.isStuck)
        #expect(stopper.stop(within: 0))
    }

    @Test("a streaming thread stuck in a probe: the stop is given up on, and later calls do not wait again")
    func stuckThread() throws {
        let pipeline = try Pipeline.parse("fakesrc name=src is-live=true ! fakesink")
        let entered = Mutex(false)
        let release = Mutex(false)
        let token = try pipeline.element(named: "src").staticPad("src").addProbe(.buffer) { _ in
            entered.withLock { $0 = true }
            // Blocks the streaming thread (as a deadlocked element would) until released.
            while !release.withLock({ $0 }) { Thread.sleep(forTimeInterval: 0.01) }
            return .pass
        }
        _ = try pipeline.setState(.playing)
        #expect(Wait.until { entered.withLock { $0 } })
        let stopper = PipelineStopper(pipeline)
        #expect(!stopper.stop(within: 0.3))
        #expect(stopper.isStuck)
        #expect(!stopper.stop(within: 30))   // does not wait again
        release.withLock { $0 = true }
        // Once the thread leaves, the stop it began completes.
        #expect(Wait.until { !stopper.isStuck })
        token.remove()
    }
}

import CGStreamer
import Foundation
import GStreamer
import Synchronization
import Testing

/// `Element.onPadAdded` and its `SignalToken`.
@Suite struct PadAddedTests {
    /// A request pad is added synchronously, in the requesting thread: the handler sees each
    /// one until it is disconnected, and then its closure is released.
    @Test func handlerSeesEachNewPadUntilDisconnected() throws {
        let tee = try Element.make("tee", name: "t")
        let names = Mutex<[String]>([])
        let closure: CanaryWatch
        let token: SignalToken
        do {
            // Only the handler holds the canary.
            let canary = Canary()
            closure = CanaryWatch(canary)
            token = tee.onPadAdded { [canary] pad in
                _ = canary
                let name = pad.name
                names.withLock { $0.append(name) }
            }
        }
        let first = try tee.requestPad("src_%u")
        #expect(names.withLock { $0 } == [first.name])
        token.disconnect()
        token.disconnect()  // idempotent
        #expect(Wait.until { !closure.isAlive }, "the disconnected handler's closure is still alive")
        let second = try tee.requestPad("src_%u")
        #expect(first.name != second.name)
        #expect(names.withLock { $0 } == [first.name], "a disconnected handler was called")
    }

    /// Dropping the token disconnects the handler as `disconnect()` does.
    @Test func droppedTokenDisconnects() throws {
        let tee = try Element.make("tee")
        let calls = Mutex(0)
        let closure: CanaryWatch
        do {
            let canary = Canary()
            closure = CanaryWatch(canary)
            let token = tee.onPadAdded { [canary] _ in
                _ = canary
                calls.withLock { $0 += 1 }
            }
            _ = try tee.requestPad("src_%u")
            withExtendedLifetime(token) {}
        }
        #expect(Wait.until { !closure.isAlive }, "the dropped token's closure is still alive")
        _ = try tee.requestPad("src_%u")
        #expect(calls.withLock { $0 } == 1)
    }

    /// The dynamic case the bindings exist for: decodebin adds its source pad on a
    /// streaming thread once it knows the stream; the handler links it and the stream
    /// runs to its end.
    @Test func dynamicPadIsLinkedFromTheHandler() throws {
        let pipeline = try Pipeline.parse(
            "videotestsrc num-buffers=5 ! video/x-raw,width=32,height=24 ! decodebin name=dec  fakesink name=sink")
        let sinkPad = try pipeline.element(named: "sink").staticPad("sink")
        let added = Mutex<[String]>([])
        let linked = Mutex(false)
        let token = try pipeline.element(named: "dec").onPadAdded { pad in
            let caps = pad.capsNowOrQueried?.mediaType ?? "?"
            added.withLock { $0.append(caps) }
            if (try? pad.link(sinkPad)) != nil { linked.withLock { $0 = true } }
        }
        let messages = try runToEnd(pipeline)
        token.disconnect()
        #expect(messages.contains(.endOfStream), "\(messages)")
        #expect(added.withLock { $0 } == ["video/x-raw"])
        #expect(linked.withLock { $0 })
    }
}

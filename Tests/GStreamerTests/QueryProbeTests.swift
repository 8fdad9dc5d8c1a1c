import GStreamer
import Synchronization
import Testing

/// Query probes: an ALLOCATION query seen before it is sent, answered by the peer on the
/// probe's request, changed, and handed back as answered (`.handled`).
@Suite struct QueryProbeTests {
    /// What a probe on videotestsrc's source pad saw of its ALLOCATION query.
    struct Seen: Sendable {
        var answered: Bool?
        var caps: String?
        var before: [AllocationPool] = []
        var after: [AllocationPool] = []
    }

    /// Runs `videotestsrc num-buffers=1 ! DOWNSTREAM` with a probe that has the peer answer
    /// the allocation query and then makes its first pool's minimum 9 (or proposes one).
    func run(_ downstream: String) throws -> Seen {
        let pipeline = try Pipeline.parse("videotestsrc num-buffers=1 name=src ! video/x-raw,format=I420,width=64,height=48 ! \(downstream)")
        let pad = try pipeline.element(named: "src").staticPad("src")
        let seen = Mutex(Seen())
        let token = pad.addProbe(.downstreamQuery) { [weak pad] info in
            guard let query = info.query, let allocation = query.allocation, let peer = pad?.peer else { return .pass }
            let answered = peer.answer(query)
            let before = allocation.pools
            if before.isEmpty {
                allocation.addPool(size: 0, minimumBuffers: 9, maximumBuffers: 0)
            } else {
                allocation.setMinimumBuffers(9, ofPool: 0)
            }
            let caps = allocation.caps?.description
            seen.withLock { $0 = Seen(answered: answered, caps: caps, before: before, after: allocation.pools) }
            return .handled
        }
        defer { token.remove() }
        let bus = try #require(pipeline.bus)
        try pipeline.setState(.playing)
        defer { _ = try? pipeline.setState(.null) }
        var ended = false
        while !ended, let message = bus.pop(timeoutNanoseconds: 30_000_000_000) {
            if message == .endOfStream { ended = true }
            if case .error(let failure) = message { Issue.record("\(failure)"); break }
        }
        #expect(ended)
        return seen.withLock { $0 }
    }

    @Test func aProbeRaisesTheMinimumOfTheAnsweredPool() throws {
        // videoconvert converts (I420 to RGB), so it proposes a pool of its own.
        let seen = try run("videoconvert ! video/x-raw,format=RGB ! fakesink")
        #expect(seen.answered == true)
        #expect(seen.caps?.hasPrefix("video/x-raw") == true, "\(seen.caps ?? "nil")")
        let before = try #require(seen.before.first)
        #expect(before.size == 64 * 48 * 3 / 2)
        #expect(seen.after == [AllocationPool(hasPool: before.hasPool, size: before.size, minimumBuffers: 9,
                                              maximumBuffers: before.maximumBuffers == 0 ? 0 : max(9, before.maximumBuffers))])
    }

    @Test func aProbeProposesAPoolWhenThePeerAnsweredNone() throws {
        // fakesink answers no ALLOCATION query in 1.22: the answer fails and proposes nothing.
        let seen = try run("fakesink")
        #expect(seen.answered == false)
        #expect(seen.before.isEmpty)
        #expect(seen.after == [AllocationPool(hasPool: false, size: 0, minimumBuffers: 9, maximumBuffers: 0)])
    }
}

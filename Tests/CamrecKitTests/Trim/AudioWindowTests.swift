@testable import CamrecKit
@testable import Trim
import Testing

/// Which audio goes with the trimmed video, and when, with plain values: the edges of the
/// window, the millisecond of lead, the tracks' own offsets.
@Suite("Trim AudioWindow")
struct AudioWindowTests {
    static let ms: Int64 = 1_000_000
    static let aac: Int64 = 21_333_333  // 1024 samples at 48 kHz

    /// The window of a plan whose frames run from `first` to `end` (buffer times).
    static func window(first: Int64, end: Int64, offset: Int64 = 0, audioOffset: Int64 = 0) -> AudioWindow {
        let plan = TrimPlan(
            mode: .accurate, parts: [.copy(frames: 0...0)], firstPTS: first, lastPTS: end - 40 * ms, endPTS: end,
            frameCount: 1, framesCopied: 1, framesReencoded: 0
        )
        return AudioWindow(plan: plan, presentationOffset: offset, audioPresentationOffset: audioOffset)
    }

    static func packets(from start: Int64, count: Int) -> [AudioPacket] {
        (0..<count).map { AudioPacket(pts: start + Int64($0) * aac, duration: aac) }
    }

    @Test("the edges: a millisecond of lead before the first frame, nothing from the end of the last")
    func edges() {
        let ms = Self.ms
        let window = Self.window(first: 1000 * ms, end: 3000 * ms)
        #expect(window.place(1000 * ms - 2 * ms) == .before)
        #expect(window.place(1000 * ms - ms - 1) == .before)
        #expect(window.place(1000 * ms - ms) == .inside)
        #expect(window.place(1000 * ms) == .inside)
        #expect(window.place(3000 * ms - 1) == .inside)
        #expect(window.place(3000 * ms) == .after)
        #expect(window.offset(ofPacketAt: 1000 * ms - ms / 2) == -ms / 2)
        #expect(window.offset(ofPacketAt: 1500 * ms) == 500 * ms)
    }

    @Test("the kept run: from the first packet inside to the last that starts before the end")
    func keptRun() {
        let ms = Self.ms
        // Packets every 21.3 ms from 0: the first at or after 1 s is the 47th (1002.7 ms).
        let packets = Self.packets(from: 0, count: 200)
        let window = Self.window(first: 1000 * ms, end: 3000 * ms)
        let run = window.keptRun(of: packets)
        #expect(run == 47...140)
        if let run {
            #expect(packets[run.lowerBound].pts >= 1000 * ms && packets[run.lowerBound - 1].pts < 1000 * ms - ms)
            #expect(packets[run.upperBound].pts < 3000 * ms && packets[run.upperBound + 1].pts >= 3000 * ms)
        }
        // No packet inside: all before, or the first one past the end.
        #expect(window.keptRun(of: Self.packets(from: 0, count: 40)) == nil)
        #expect(window.keptRun(of: Self.packets(from: 3000 * ms, count: 40)) == nil)
        #expect(window.keptRun(of: []) == nil)
    }

    @Test("audio that starts after the first frame is kept from its start, later by its offset")
    func lateAudio() {
        let ms = Self.ms
        let window = Self.window(first: 500 * ms, end: 3000 * ms)
        let packets = Self.packets(from: 1000 * ms, count: 200)
        #expect(window.keptRun(of: packets)?.lowerBound == 0)
        #expect(window.offset(ofPacketAt: packets[0].pts) == 500 * ms, "an empty edit of half a second")
    }

    @Test("each track through its own offset: the window is on the presentation timeline")
    func offsets() {
        let ms = Self.ms
        // Video buffer times 80 ms after presentation (B-frame delay edit), audio 21 ms (AAC priming).
        let window = Self.window(first: 1080 * ms, end: 3080 * ms, offset: 80 * ms, audioOffset: 21 * ms)
        #expect(window.start == 1000 * ms)
        #expect(window.end == 3000 * ms)
        #expect(window.place(1021 * ms) == .inside)
        #expect(window.offset(ofPacketAt: 1021 * ms) == 0)
        #expect(window.place(1019 * ms) == .before)
        #expect(window.place(3021 * ms) == .after)
        // Negative presentation offsets (an empty edit before the media) work the same way.
        let shifted = Self.window(first: 0, end: 2000 * ms, offset: -1000 * ms, audioOffset: -1000 * ms)
        #expect(shifted.start == 1000 * ms)
        #expect(shifted.place(0) == .inside)
        #expect(shifted.offset(ofPacketAt: 500 * ms) == 500 * ms)
    }

    @Test("placing packets as they come: dropped before, rising output times, finished at the end")
    func placer() {
        let ms = Self.ms
        var placer = AudioPlacer(window: Self.window(first: 1000 * ms, end: 1100 * ms))
        #expect(placer.place(900 * ms) == nil)
        #expect(!placer.isFinished)
        #expect(placer.place(1000 * ms - ms / 2) == 0, "within the lead: at 0, never before")
        #expect(placer.place(1000 * ms) == 1, "never at or before the packet before it")
        #expect(placer.place(1050 * ms) == 50 * ms)
        #expect(placer.place(1100 * ms) == nil)
        #expect(placer.isFinished)
        #expect(placer.place(1060 * ms) == nil, "nothing after the end, even a stray packet")
    }
}

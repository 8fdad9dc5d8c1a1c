@testable import CamrecKit
import Testing

/// `SoundClock` against a simulated sound card: a crystal some ppm off, 10-ms buffers
/// delivered a little after they were captured, with jitter, busy spells and real losses.
/// The truth is when each buffer's sound was captured; the clock only sees sample counts
/// and arrival times, as in a recording.
@Suite("Sound clock: sound stays on the system clock")
struct SoundClockTests {
    /// A sound card at 48 kHz, `ppm` fast, delivering 480-frame buffers `delay` ns after
    /// their capture plus whatever `extra` adds.
    struct Card {
        var ppm: Double
        var delay: UInt64 = 2_000_000
        var start: UInt64 = 500_000_000
        let rate = 48_000
        let count = 480

        /// When buffer `index` of the card's sound ends (system clock, ns), `lost` ns of
        /// capture skipped before it.
        func captureEnd(_ index: Int, lost: UInt64 = 0) -> UInt64 {
            let seconds = Double((index + 1) * count) / (Double(rate) * (1 + ppm / 1_000_000))
            return start + lost + UInt64(seconds * 1_000_000_000)
        }

        /// The source's own stamp for buffer `index`: its sample count.
        func stamp(_ index: Int) -> UInt64 { UInt64(index * count) * 1_000_000_000 / UInt64(rate) }
    }

    /// Places `buffers` buffers of `card`; `extra(index)` is added to a buffer's delivery
    /// delay, `lost(index)` is the capture time skipped before it, `discont(index)` marks it.
    /// Returns each buffer's error: where its sound was placed to end minus when it was
    /// captured, less the card's steady delivery delay.
    static func run(
        _ card: Card, buffers: Int, clock: inout SoundClock,
        extra: (Int) -> UInt64 = { _ in 0 }, lost: (Int) -> UInt64 = { _ in 0 },
        discont: (Int) -> Bool = { _ in false }, placements: inout [SoundClock.Placement]
    ) -> [Double] {
        var errors: [Double] = []
        var previousArrival: UInt64 = 0
        for index in 0..<buffers {
            let captured = card.captureEnd(index, lost: lost(index))
            // A buffer never arrives before the one before it (a burst after a busy spell).
            let arrival = max(captured + card.delay + extra(index), previousArrival)
            previousArrival = arrival
            let stamp = card.stamp(index) + (discont(index) ? lost(index) : 0)
            let placed = clock.place(pts: stamp, count: card.count, arrival: arrival, discontinuous: discont(index))
            placements.append(placed)
            let end = Double(placed.pts + placed.duration)
            errors.append((end - Double(captured) - Double(card.delay)) / 1_000_000)
        }
        return errors
    }

    /// Placements follow each other without a gap or an overlap except at a jump.
    static func continuous(_ placements: [SoundClock.Placement]) -> Bool {
        zip(placements, placements.dropFirst()).allSatisfy { previous, next in
            next.jump != 0 || next.pts == previous.pts + previous.duration
        }
    }

    @Test("a card off by ±150 or ±600 ppm stays within a millisecond over ten minutes, continuous",
          arguments: [150.0, -150.0, 600.0, -600.0])
    func drift(ppm: Double) {
        var clock = SoundClock(rate: 48_000)
        var placements: [SoundClock.Placement] = []
        let card = Card(ppm: ppm)
        // Deterministic jitter: up to 6 ms on most buffers, none on every seventh.
        let errors = Self.run(card, buffers: 60_000, clock: &clock, extra: { index in
            index % 7 == 0 ? 0 : UInt64((index * 7919) % 6_000) * 1_000
        }, placements: &placements)
        let settled = errors.dropFirst(1_000)
        #expect(settled.allSatisfy { abs($0) < 1.0 }, "worst \(settled.map(abs).max() ?? 0) ms")
        #expect(Self.continuous(placements))
        #expect(clock.jumps == 0)
        // Uncorrected, the card would be 90 or 360 ms off by the end.
        #expect(abs(clock.clockPPM - ppm) < 25, "\(clock.clockPPM)")
        // Single frames, never more than one in a hundred.
        #expect(placements.allSatisfy { abs($0.edit) <= 4 })
    }

    @Test("a card on the system clock is left alone")
    func exact() {
        var clock = SoundClock(rate: 48_000)
        var placements: [SoundClock.Placement] = []
        let errors = Self.run(Card(ppm: 0), buffers: 6_000, clock: &clock, placements: &placements)
        #expect(errors.allSatisfy { abs($0) < 0.05 })
        #expect(placements.allSatisfy { $0.edit == 0 && $0.jump == 0 })
    }

    @Test("a busy spell (two seconds late, then a burst) neither jumps nor moves the sound by more than 2 ms")
    func busySpell() {
        var clock = SoundClock(rate: 48_000)
        var placements: [SoundClock.Placement] = []
        let card = Card(ppm: 100)
        // Buffers 3000..3199 (2 s) wait until the spell ends at buffer 3200's capture.
        let errors = Self.run(card, buffers: 12_000, clock: &clock, extra: { index in
            (3_000..<3_200).contains(index) ? card.captureEnd(3_200) - card.captureEnd(index) : 0
        }, placements: &placements)
        #expect(clock.jumps == 0)
        #expect(Self.continuous(placements))
        #expect(errors.dropFirst(1_000).allSatisfy { abs($0) < 2.0 }, "worst \(errors.dropFirst(1_000).map(abs).max() ?? 0)")
        #expect(errors.suffix(1_000).allSatisfy { abs($0) < 1.0 })
    }

    @Test("a card that stops for half a second: the sound after it jumps to its place (a gap for silence)")
    func lostSound() {
        var clock = SoundClock(rate: 48_000)
        var placements: [SoundClock.Placement] = []
        let errors = Self.run(Card(ppm: 0), buffers: 3_000, clock: &clock, lost: { index in
            index >= 1_000 ? 500_000_000 : 0
        }, placements: &placements)
        #expect(clock.jumps == 1)
        let jump = placements.first { $0.jump != 0 }
        #expect(jump.map { abs(Double($0.jump) - 500_000_000) < 1_000_000 } == true, "\(String(describing: jump))")
        // Within the window (0.3 s) the sound is early; after it, in place again.
        #expect(errors.suffix(1_500).allSatisfy { abs($0) < 0.5 })
    }

    @Test("a discontinuity the source marks keeps its gap at once")
    func discontinuity() {
        var clock = SoundClock(rate: 48_000)
        var placements: [SoundClock.Placement] = []
        let errors = Self.run(Card(ppm: 0), buffers: 2_000, clock: &clock, lost: { index in
            index >= 1_000 ? 30_000_000 : 0
        }, discont: { $0 == 1_000 }, placements: &placements)
        #expect(placements[1_000].jump == 30_000_000)
        #expect(errors.allSatisfy { abs($0) < 0.05 })
    }

    @Test("a first buffer that came late: the sound goes back to its place at once")
    func lateStart() {
        var clock = SoundClock(rate: 48_000)
        var placements: [SoundClock.Placement] = []
        // The first buffer arrives 100 ms late, with the next ten (a burst); then on time.
        let errors = Self.run(Card(ppm: 0), buffers: 500, clock: &clock, extra: { $0 == 0 ? 100_000_000 : 0 },
                              placements: &placements)
        #expect(placements.prefix(12).map(\.jump).reduce(0, +) < -90_000_000, "\(placements.prefix(12).map(\.jump))")
        #expect(errors.dropFirst(12).allSatisfy { abs($0) < 0.05 }, "\(errors.prefix(20))")
    }

    @Test("after the start, sound stamped 40 ms later than it arrived goes back at once")
    func backwards() {
        var clock = SoundClock(rate: 48_000)
        var placements: [SoundClock.Placement] = []
        // From buffer 1000 on, the card's sound is captured 60 ms earlier than its count says
        // (as if 60 ms of sound had been made twice).
        let card = Card(ppm: 0)
        var errors: [Double] = []
        for index in 0..<2_000 {
            let captured = card.captureEnd(index) - (index >= 1_000 ? 60_000_000 : 0)
            let placed = clock.place(pts: card.stamp(index), count: 480, arrival: captured + card.delay,
                                     discontinuous: false)
            placements.append(placed)
            errors.append((Double(placed.pts + placed.duration) - Double(captured) - Double(card.delay)) / 1_000_000)
        }
        #expect(placements[1_000].jump < -55_000_000, "\(placements[1_000])")
        #expect(errors.dropFirst(1_001).allSatisfy { abs($0) < 0.05 })
    }

    @Test("weeks of sound: the timeline never overflows")
    func long() {
        var clock = SoundClock(rate: 48_000)
        var pts: UInt64 = 0
        var last = clock.place(pts: 0, count: 480, arrival: 10_000_000, discontinuous: false)
        // 30 days in ten-second buffers.
        for step in 0..<(3 * 86_400) {
            pts += 10_000_000_000
            last = clock.place(pts: pts, count: 480_000, arrival: 10_000_000 + UInt64(step + 1) * 10_000_000_000,
                               discontinuous: false)
        }
        #expect(last.pts + last.duration == 10_000_000 + 3 * 86_400 * 10_000_000_000)
        #expect(clock.jumps == 0)
    }
}

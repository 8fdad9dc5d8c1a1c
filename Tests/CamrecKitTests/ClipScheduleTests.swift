@testable import CamrecKit
import Testing

/// When event clips start, grow and end.
@Suite("Clip schedule: triggers, events, the longest clip")
struct ClipScheduleTests {
    static let second: UInt64 = 1_000_000_000

    @Test("a trigger makes a clip from pre-roll before it to post-roll after it; the frame at its end is not in it",
          arguments: [(UInt64(2), UInt64(3)), (5, 10), (0, 1)])
    func oneTrigger(pre: UInt64, post: UInt64) {
        var schedule = ClipSchedule(preRoll: pre * Self.second, postRoll: post * Self.second, maxClip: 60 * Self.second)
        let decision = schedule.trigger(at: 20 * Self.second)
        let clip = ClipSchedule.Clip(start: (20 - pre) * Self.second, end: (20 + post) * Self.second,
                                     triggers: [20 * Self.second])
        #expect(decision == .started(clip))
        #expect(schedule.frame(at: (20 + post) * Self.second - 1) == nil)
        #expect(schedule.frame(at: (20 + post) * Self.second) == clip)
        #expect(schedule.current == nil)
    }

    @Test("a trigger while the clip is written extends it (one event); after it ended, a new clip")
    func events() {
        var schedule = ClipSchedule(preRoll: 2 * Self.second, postRoll: 3 * Self.second, maxClip: 60 * Self.second)
        _ = schedule.trigger(at: 10 * Self.second)
        let extended = schedule.trigger(at: 12 * Self.second)
        #expect(extended == .extended(.init(start: 8 * Self.second, end: 15 * Self.second,
                                            triggers: [10 * Self.second, 12 * Self.second])))
        // An earlier post-roll end does not shorten it (ctl clip --after 0).
        #expect(schedule.trigger(at: 13 * Self.second, after: 0) == .extended(.init(
            start: 8 * Self.second, end: 15 * Self.second, triggers: [10, 12, 13].map { $0 * Self.second })))
        #expect(schedule.frame(at: 15 * Self.second)?.end == 15 * Self.second)
        // The next trigger starts clip 2, its pre-roll reaching into clip 1's time.
        #expect(schedule.trigger(at: 16 * Self.second) == .started(.init(
            start: 14 * Self.second, end: 19 * Self.second, triggers: [16 * Self.second])))
        #expect(schedule.count == 2)
    }

    @Test("an event is at most --max-clip long; a trigger after that starts the next clip")
    func longestClip() {
        var schedule = ClipSchedule(preRoll: 2 * Self.second, postRoll: 3 * Self.second, maxClip: 10 * Self.second)
        _ = schedule.trigger(at: 10 * Self.second)   // 8..13
        var decision = schedule.trigger(at: 12 * Self.second)   // 8..15
        decision = schedule.trigger(at: 15 * Self.second)       // wants 18, capped at 8 + 10
        #expect(decision == .extended(.init(start: 8 * Self.second, end: 18 * Self.second,
                                            triggers: [10, 12, 15].map { $0 * Self.second })))
        #expect(schedule.frame(at: 18 * Self.second) != nil)
        guard case .started(let next) = schedule.trigger(at: 18 * Self.second + 1) else {
            Issue.record("a trigger after the longest clip ended must start another")
            return
        }
        #expect(next.start == 16 * Self.second + 1 && schedule.count == 2)
    }

    @Test("a trigger in the first seconds starts the clip at the run's start; the run's end shortens the last clip")
    func edges() {
        var schedule = ClipSchedule(preRoll: 5 * Self.second, postRoll: 5 * Self.second, maxClip: 60 * Self.second)
        #expect(schedule.trigger(at: 2 * Self.second) == .started(.init(start: 0, end: 7 * Self.second,
                                                                          triggers: [2 * Self.second])))
        #expect(schedule.close(at: 4 * Self.second) == .init(start: 0, end: 4 * Self.second, triggers: [2 * Self.second]))
        #expect(schedule.close(at: 5 * Self.second) == nil)
        // --max-clip shorter than pre-roll + post-roll is taken as their sum.
        #expect(ClipSchedule(preRoll: 5, postRoll: 5, maxClip: 3).maxClip == 10)
    }

    @Test("twenty triggers far apart make twenty clips")
    func many() {
        var schedule = ClipSchedule(preRoll: Self.second, postRoll: Self.second, maxClip: 10 * Self.second)
        var ended = 0
        for index in 0..<20 {
            let time = UInt64(index * 5 + 2) * Self.second
            if schedule.frame(at: time) != nil { ended += 1 }
            guard case .started = schedule.trigger(at: time) else {
                Issue.record("trigger \(index) did not start a clip")
                continue
            }
        }
        if schedule.close(at: 200 * Self.second) != nil { ended += 1 }
        #expect(schedule.count == 20 && ended == 20)
    }
}

@testable import CamrecKit
import Testing

/// `--still-every` on the movie's timeline.
@Suite struct StillScheduleTests {
    @Test func dueOncePerPeriodOfMovieTime() {
        var schedule = StillSchedule(every: .seconds(1), rate: FrameRateValue(numerator: 30, denominator: 1))
        let frame: UInt64 = 33_333_333
        var due: [Int] = []
        for index in 0..<100 where schedule.isDue(movieTime: UInt64(index) * frame) { due.append(index) }
        #expect(due == [30, 60, 90])   // the frames that start at 1 s, 2 s, 3 s
    }

    @Test func aStallGivesOneStillNotABurst() {
        var schedule = StillSchedule(every: .seconds(1), rate: FrameRateValue(numerator: 30, denominator: 1))
        let answers = [500_000_000, 4_200_000_000, 4_300_000_000, 5_000_000_000].map { schedule.isDue(movieTime: $0) }
        // 1, 2, 3 and 4 s passed at once at 4.2 s: one still.
        #expect(answers == [false, true, false, true])
    }

    @Test func gateCallsForStillsAtEachPeriod() {
        let gate = FrameGate(limit: nil, rate: FrameRateValue(numerator: 30, denominator: 1), stillEvery: TimeSpec(nanoseconds: 500_000_000))
        var calls: [Int] = []
        for index in 0..<61 {
            _ = gate.admit(pts: 5_000_000_000 + UInt64(index) * 33_333_333, onLimit: {}, onStillDue: { _ in calls.append(index) })
        }
        #expect(calls == [15, 30, 45, 60])
    }
}

@testable import CamrecKit
import Testing

/// Issue 37 item 3: what the recording leaves out when its encoder is behind, on plain
/// backlogs (nanoseconds): nothing up to `calm`, then a share that grows with the backlog,
/// spread evenly.
@Suite struct LoadShedderTests {
    /// Which of `count` frames are left out at a steady `backlog` (true: left out).
    func pattern(_ count: Int, backlog: UInt64) -> [Bool] {
        var shedder = LoadShedder()
        return (0..<count).map { _ in shedder.leavesOut(backlog: backlog) }
    }

    /// The backlog at which `share` of the frames are left out.
    func backlog(forShare share: Double) -> UInt64 {
        LoadShedder.calm + UInt64(share / LoadShedder.mostShed * Double(LoadShedder.full - LoadShedder.calm))
    }

    @Test func aBacklogUpToCalmCostsNoFrame() {
        for backlog: UInt64 in [0, 100_000_000, LoadShedder.calm] {
            #expect(!pattern(1000, backlog: backlog).contains(true), "\(backlog)")
            #expect(LoadShedder.share(backlog: backlog) == 0)
        }
        #expect(LoadShedder.share(backlog: LoadShedder.calm + 1_000_000) > 0)
    }

    @Test func theShareGrowsWithTheBacklogUpToNineInTen() {
        let backlogs: [UInt64] = [1_550_000_000, 1_600_000_000, 1_700_000_000, 1_800_000_000, 1_900_000_000, 2_500_000_000]
        let shares = backlogs.map(LoadShedder.share(backlog:))
        #expect(zip(shares, shares.dropFirst()).allSatisfy { $0 <= $1 }, "\(shares)")
        #expect(shares.last == LoadShedder.mostShed && LoadShedder.share(backlog: LoadShedder.full) == LoadShedder.mostShed)
        let most = pattern(1000, backlog: 5_000_000_000)
        #expect(abs(most.filter { $0 }.count - 900) <= 1)
        // At most nine left out in a row: the tenth is always kept.
        #expect(longestRun(most) == 9)
    }

    @Test(arguments: [(1.0 / 3, 100, 1), (0.5, 150, 1), (2.0 / 3, 200, 2)])
    func framesAreLeftOutEvenly(_ share: Double, _ expected: Int, _ longest: Int) {
        let left = pattern(300, backlog: backlog(forShare: share + 0.000_1))
        #expect(abs(left.filter { $0 }.count - expected) <= 1, "\(left.filter { $0 }.count) of 300 at \(share)")
        #expect(longestRun(left) == longest, "never a run: \(left.map { $0 ? "x" : "." }.joined())")
        // Each left-out frame is the same distance from the next.
        let positions = left.indices.filter { left[$0] }
        let gaps = Set(zip(positions, positions.dropFirst()).map { $1 - $0 })
        #expect(gaps.count <= 2 && (gaps.max() ?? 0) - (gaps.min() ?? 0) <= 1, "\(gaps)")
    }

    @Test func aCalmFrameStartsTheSpreadAgainAndCountsStay() {
        var shedder = LoadShedder()
        let half = backlog(forShare: 0.5 + 0.000_1)
        var left: [Bool] = []
        for backlog in [half, half, half, 0, half, half] { left.append(shedder.leavesOut(backlog: backlog)) }
        // The half frame carried before the calm one is forgotten: the next is kept.
        #expect(left == [false, true, false, false, false, true])
        #expect(shedder.shed == 2)
    }

    @Test func theWarningSaysWhatKeepsEveryFrame() {
        let warning = LoadShedder.warning(rate: FrameRateValue(30))
        #expect(warning.hasPrefix("the encoder cannot keep up (1.5 s behind): camrec now leaves frames out evenly"), "\(warning)")
        #expect(warning.contains("--fps (30 now)") && warning.contains("shed_frames"), "\(warning)")
    }

    func longestRun(_ left: [Bool]) -> Int {
        var (longest, run) = (0, 0)
        for out in left {
            run = out ? run + 1 : 0
            longest = max(longest, run)
        }
        return longest
    }
}

@testable import CamrecKit
import Synchronization
import Testing

/// The scheduled run's loop with a clock the test drives and windows that "record" by
/// moving that clock: the order of its lines, the windows it records, the movies'
/// numbers across windows, clock steps while waiting, and a stop while waiting.
struct ScheduledRunTests {
    static let second: Int64 = 1_000_000_000
    static let monday = RuleZone.utc(2026, 11, 30, 0, 0)

    /// A clock whose time only moves when the test (or a wait) moves it. Each wait takes
    /// the next scripted step; without one it jumps to the moment waited for.
    final class TestClock: ScheduleClock, @unchecked Sendable {
        enum Step { case step(Int64), stop }
        struct State {
            var wall: Int64
            var steady: Int64 = 1_000 * ScheduledRunTests.second
            var script: [Step] = []
            var woken = false
            var waits: [WallTime] = []
            /// What `ctl status` answered during each wait.
            var statusReplies: [String] = []
        }
        let state: Mutex<State>
        /// What a scripted stop stops.
        var stopping: ScheduledRun?

        init(at seconds: Int64, script: [Step] = []) {
            state = Mutex(State(wall: seconds * ScheduledRunTests.second, script: script))
        }

        func now() -> ClockReading {
            state.withLock { ClockReading(wall: WallTime(seconds: 0, nanoseconds: $0.wall), steady: $0.steady) }
        }

        func pass(to wall: Int64) {
            state.withLock { state in
                state.steady += max(0, wall - state.wall)
                state.wall = wall
            }
        }

        func wait(until deadline: WallTime) -> ClockWake {
            if let run = stopping {
                let reply = ControlAnswers.answer(.status, run: run)
                state.withLock { $0.statusReplies.append(reply) }
            }
            let step = state.withLock { state -> Step? in
                state.waits.append(deadline)
                return state.script.isEmpty ? nil : state.script.removeFirst()
            }
            switch step {
            case .step(let nanoseconds):
                state.withLock { $0.wall += nanoseconds }
                return .clockSet
            case .stop:
                stopping?.requestStop(.signal, requests: 1)
            case nil:
                pass(to: deadline.seconds * ScheduledRunTests.second + deadline.nanoseconds)
            }
            return state.withLock { state in
                defer { state.woken = false }
                return state.woken ? .woken : .reached
            }
        }

        func wake() { state.withLock { $0.woken = true } }
    }

    /// A window's run: the movie lasts until the window's end (or `stopAfter` windows in,
    /// the test's stop), on the test clock.
    final class TestWindowRun: WindowRun, @unchecked Sendable {
        let window: ScheduleWindow
        let clock: TestClock
        let stop = Mutex<StopReason?>(nil)

        init(_ window: ScheduleWindow, clock: TestClock) {
            self.window = window
            self.clock = clock
        }

        func run(events: @escaping @Sendable (RecordingEvent) -> Void) throws(CamrecError) -> RecordingResult {
            if let reason = stop.withLock({ $0 }) { return RecordingResult(reason: reason, files: [], droppedFrames: 0) }
            let now = clock.now().wall
            let start = max(window.start * ScheduledRunTests.second, now.seconds * ScheduledRunTests.second + now.nanoseconds)
            let end = window.end * ScheduledRunTests.second - 10_000_000
            clock.pass(to: end)
            var file = ResultFile(path: "shop-\(window.start).mp4", kind: "movie",
                                  duration: Double(end - start) / 1e9, frames: nil, bytes: 1)
            file.index = 1
            // A motion starts the window's first clip.
            events(.clipStarted(ClipStartLine(clip: 1, path: "shop-clip-\(window.start).mp4", time: 1, start: 1)))
            events(.motion(MotionLine(time: 1, area: 0.1, clip: 1)))
            var clip = ResultFile(path: "shop-clip-\(window.start).mp4", kind: "clip", duration: 1, frames: 30, bytes: 1)
            clip.index = 1
            events(.clip(clip))
            events(.segment(file))
            return RecordingResult(reason: .maxDuration, files: [clip, file], droppedFrames: 2)
        }

        var cameraRecorders: [Recorder] { [] }
        func requestStop(_ reason: StopReason, requests: Int) { stop.withLock { $0 = reason } }
        func splitNow() -> Bool { false }
        func status() -> RecorderStatus? { nil }
        func clipNow(after: TimeSpec?, still: Bool) -> Result<ClipTrigger, CamrecError>? { nil }
    }

    final class Lines: @unchecked Sendable {
        let lines = Mutex<[String]>([])
        func add(_ event: RecordingEvent) {
            let line: String
            switch event {
            case .schedule(let schedule): line = "\(schedule.state.rawValue) \(schedule.startMs / 1000)-\(schedule.endMs / 1000)"
            case .segment(let file): line = "segment \(file.index ?? 0) \(file.path)"
            case .clipStarted(let started): line = "clip-started \(started.clip)"
            case .motion(let motion): line = "motion \(motion.clip ?? 0)"
            case .clip(let file): line = "clip \(file.index ?? 0)"
            default: line = "other"
            }
            lines.withLock { $0.append(line) }
        }
        var all: [String] { lines.withLock { $0 } }
    }

    func window(day: Int64) -> ScheduleWindow {
        ScheduleWindow(start: Self.monday + day * 86_400 + 9 * 3600, end: Self.monday + day * 86_400 + 10 * 3600)
    }

    func line(_ state: String, _ window: ScheduleWindow) -> String { "\(state) \(window.start)-\(window.end)" }

    /// Two windows on two days, then a stop while waiting for the third: every movie and
    /// clip in the result, numbered on (in every line that names a clip), the lines in
    /// order, a normal stop.
    @Test func recordsEachWindowAndStopsCleanlyWhileWaiting() throws {
        let clock = TestClock(at: Self.monday + 8 * 3600, script: [])
        let run = ScheduledRun(schedule: try Schedule(parsing: "daily 09:00-10:00"), zone: UTCZone(), utc: true,
                               lead: 3 * Self.second, clock: clock)
        clock.stopping = run
        let lines = Lines()
        var windows: [ScheduleWindow] = []
        let result = try run.run(makeRun: { window in
            windows.append(window)
            // The third wait (before the third window) is a stop.
            if windows.count == 2 { clock.state.withLock { $0.script = [.stop] } }
            return TestWindowRun(window, clock: clock)
        }, events: { lines.add($0) })
        #expect(windows == [window(day: 0), window(day: 1)])
        #expect(lines.all == [line("waiting", window(day: 0)), line("recording", window(day: 0)),
                              "clip-started 1", "motion 1", "clip 1", "segment 1 shop-\(window(day: 0).start).mp4",
                              line("waiting", window(day: 1)), line("recording", window(day: 1)),
                              "clip-started 2", "motion 2", "clip 2", "segment 2 shop-\(window(day: 1).start).mp4",
                              line("waiting", window(day: 2))])
        #expect(result.reason == .signal && result.exitStatus == .success)
        #expect(result.files.map(\.index) == [1, 1, 2, 2] && result.files.map(\.kind) == ["clip", "movie", "clip", "movie"])
        #expect(result.droppedFrames == 4)
        // The camera opened 3 s before each window.
        #expect(clock.state.withLock { $0.waits.first } == WallTime(seconds: window(day: 0).start - 3, nanoseconds: 0))
    }

    /// A stop before any window: nothing recorded, a normal stop.
    @Test func aStopWhileWaitingForTheFirstWindowEndsWithNoFile() throws {
        let clock = TestClock(at: Self.monday + 8 * 3600, script: [.stop])
        let run = ScheduledRun(schedule: try Schedule(parsing: "daily 09:00-10:00"), zone: UTCZone(), utc: true,
                               lead: 3 * Self.second, clock: clock)
        clock.stopping = run
        let lines = Lines()
        let result = try run.run(makeRun: { window in
            Issue.record("recorded \(window)")
            return TestWindowRun(window, clock: clock)
        }, events: { lines.add($0) })
        #expect(result.reason == .signal && result.files.isEmpty && result.exitStatus == .success)
        #expect(lines.all == [line("waiting", window(day: 0))])
        // Asked while waiting, the control socket says so (and nothing records).
        let reply = try #require(clock.state.withLock { $0.statusReplies.first })
        #expect(reply.contains("\"ok\":false") && reply.contains("waiting for the schedule's next window (2026-11-30 09:00:00 UTC to 2026-11-30 10:00:00 UTC)"), "\(reply)")
    }

    /// The clock stepped forward into the window while camrec waited: it records at once,
    /// for what is left; stepped back by an hour after the first window, that window's last
    /// hour (as the clock now reads it) is recorded again.
    @Test func clockStepsWhileWaiting() throws {
        let clock = TestClock(at: Self.monday + 8 * 3600, script: [.step(3600 * Self.second + 1800 * Self.second)])
        let run = ScheduledRun(schedule: try Schedule(parsing: "daily 09:00-10:00"), zone: UTCZone(), utc: true,
                               lead: 3 * Self.second, clock: clock)
        clock.stopping = run
        let lines = Lines()
        var durations: [Double] = []
        var count = 0
        _ = try run.run(makeRun: { window in
            count += 1
            // The wait after the first window: the clock is stepped back an hour; after the second, a stop.
            clock.state.withLock { $0.script = count == 1 ? [.step(-3600 * Self.second)] : [.stop] }
            return TestWindowRun(window, clock: clock)
        }, windowEnded: { result in durations += result.files.filter { $0.kind == "movie" }.compactMap(\.duration) }, events: { lines.add($0) })
        #expect(count == 2)
        // 30 minutes (started late, at 09:30), then the hour the step back gave again.
        #expect(durations.count == 2 && abs(durations[0] - 1800) < 0.1 && abs(durations[1] - 3600) < 0.1, "\(durations)")
        #expect(lines.all.filter { $0.hasPrefix("recording") } == [line("recording", window(day: 0)), line("recording", window(day: 0))])
    }

    /// Berlin's night of 24-25 October 2026, when the clocks go back: the night shift
    /// 22:00-06:00 records 9 h, and the next starts at 22:00 CET (21:00 UTC).
    @Test func aNightShiftOverTheChangeBackRecordsNineHours() throws {
        // Saturday 24 October, 21:00 CEST.
        let clock = TestClock(at: RuleZone.utc(2026, 10, 24, 19, 0))
        let run = ScheduledRun(schedule: try Schedule(parsing: "daily 22:00-06:00"), zone: RuleZone.berlin, utc: false,
                               lead: 3 * Self.second, clock: clock)
        clock.stopping = run
        var windows: [ScheduleWindow] = []
        var durations: [Double] = []
        _ = try run.run(makeRun: { window in
            windows.append(window)
            clock.state.withLock { $0.script = [.stop] }
            return TestWindowRun(window, clock: clock)
        }, windowEnded: { result in durations += result.files.filter { $0.kind == "movie" }.compactMap(\.duration) }, events: { _ in })
        #expect(windows == [ScheduleWindow(start: RuleZone.utc(2026, 10, 24, 20, 0), end: RuleZone.utc(2026, 10, 25, 5, 0))])
        #expect(durations.count == 1 && abs(durations[0] - 9 * 3600) < 0.1, "\(durations)")
        // Then it waited for Sunday 22:00 CET, less the camera's lead.
        #expect(clock.state.withLock { $0.waits.last } == WallTime(seconds: RuleZone.utc(2026, 10, 25, 21, 0) - 3, nanoseconds: 0))
    }
}

/// The wall clock and a clock that never jumps, read together.
public struct ClockReading: Sendable, Equatable {
    /// The wall clock (CLOCK_REALTIME), which NTP and people may step.
    public var wall: WallTime
    /// Nanoseconds on a clock that only goes forward (CLOCK_BOOTTIME).
    public var steady: Int64

    public init(wall: WallTime, steady: Int64) {
        self.wall = wall
        self.steady = steady
    }

    /// The wall clock in nanoseconds since 1970.
    var wallNanoseconds: Int64 { wall.seconds * 1_000_000_000 + wall.nanoseconds }
}

/// What a scheduled run (`--schedule`) does next, decided from the clock alone: record a
/// window now, or wait with the camera closed until a moment on the wall clock and ask
/// again. A value, fed clock readings, so that every case (a start inside a window, the
/// clocks going forward or back, NTP stepping the clock either way) is a unit test.
///
/// The camera opens `lead` before a window starts (the movie's first frame is the first
/// at its start: `FrameGate` holds back the earlier ones). A window once recorded is not
/// recorded again: its end is kept on the steady clock, so that a wall clock stepped back
/// by more than a second makes the rest of the window, as the stepped clock now reads it,
/// a window to record again, and one stepped forward passes over what it skipped.
public struct ScheduleMachine: Sendable {
    /// What to do next.
    public enum Step: Sendable, Equatable {
        /// Record `window` now, until its end (it may have begun: the movie starts at once).
        case record(ScheduleWindow)
        /// Keep the camera closed until the wall clock reads `until` (or is stepped), then
        /// ask again. `announce`: `next` is not the window last said to be next.
        case wait(until: WallTime, next: ScheduleWindow, announce: Bool)
        /// Nothing to record within a week (every window lies in a skipped hour): ask
        /// again at `until`.
        case idle(until: WallTime)
    }

    /// The windows.
    public let schedule: Schedule
    /// The zone the windows are in.
    public let zone: any UTCOffsets
    /// How long before a window the camera opens, in nanoseconds.
    public let lead: Int64
    /// The end of the window recorded last, on the steady clock.
    private var doneSteady: Int64?
    /// The window last announced as next.
    private var announced: ScheduleWindow?

    /// A wall clock stepped back by less than this after a window ended does not make
    /// its last moments a window of their own.
    static let stepTolerance: Int64 = 1_000_000_000

    public init(schedule: Schedule, zone: any UTCOffsets, lead: Int64) {
        self.schedule = schedule
        self.zone = zone
        self.lead = lead
    }

    /// What to do at `now`.
    public mutating func next(at now: ClockReading) -> Step {
        let wall = now.wallNanoseconds
        // The recorded window's end as the wall clock now reads it.
        let done = doneSteady.map { done -> Int64 in
            let wallDone = wall - (now.steady - done)
            return Self.floorSeconds(wallDone + Self.stepTolerance)
        }
        let second = Self.floorSeconds(wall)
        guard let position = schedule.position(at: second, zone: zone, done: done) else {
            return .idle(until: WallTime(seconds: second + 86_400, nanoseconds: 0))
        }
        switch position {
        case .inside(let window):
            return .record(window)
        case .before(let window):
            let opening = window.start * 1_000_000_000 - lead
            if wall >= opening { return .record(window) }
            defer { announced = window }
            return .wait(until: WallTime(seconds: 0, nanoseconds: opening), next: window, announce: announced != window)
        }
    }

    /// `window` was recorded (or its movie ended before its end, by `--max-duration`): it
    /// is done as of `now`.
    public mutating func recorded(_ window: ScheduleWindow, at now: ClockReading) {
        doneSteady = now.steady + (window.end * 1_000_000_000 - now.wallNanoseconds)
        announced = nil
    }

    private static func floorSeconds(_ nanoseconds: Int64) -> Int64 {
        nanoseconds >= 0 ? nanoseconds / 1_000_000_000 : (nanoseconds - 999_999_999) / 1_000_000_000
    }
}

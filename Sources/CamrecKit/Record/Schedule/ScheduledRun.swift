import Synchronization

/// A run the schedule starts for one window: `RecordingRun`, or a stand-in in tests.
public protocol WindowRun: ControlledRun {
    /// Records until the window's end, a stop request or a failure.
    func run(events: @escaping @Sendable (RecordingEvent) -> Void) throws(CamrecError) -> RecordingResult
}

extension RecordingRun: WindowRun {}

/// A recording that runs only inside the windows of `--schedule`: between them the
/// camera is closed and camrec waits on the clock (`ScheduleClock`), saying when it starts
/// next (a `schedule` line); in a window it records with a fresh run that ends its movie
/// exactly at the window's end (`RecordConfig.window`), then waits for the next. The
/// decisions are `ScheduleMachine`'s; this class only waits, starts the window's run and
/// passes the controls (signals, the socket, keys) to it. It stops when a stop is asked
/// for (also while waiting: at once, as a normal stop) or a window's run stops for
/// another reason than its end (a failure, a lost camera, a full disk).
public final class ScheduledRun: Sendable {
    private struct State {
        var current: (any WindowRun)?
        /// The window waited for, while waiting.
        var next: ScheduleWindow?
        var stop: StopReason?
        var requests = 0
    }

    private let state = Mutex(State())
    private let clock: any ScheduleClock
    private let machine: ScheduleMachine
    private let utc: Bool

    /// The run of `schedule`'s windows in `zone` (`utc`: said in UTC), the camera opened
    /// `lead` (ns) before each, timed by `clock`.
    public init(schedule: Schedule, zone: any UTCOffsets, utc: Bool, lead: Int64, clock: any ScheduleClock) {
        machine = ScheduleMachine(schedule: schedule, zone: zone, lead: lead)
        self.clock = clock
        self.utc = utc
    }

    /// Records every window with the run `makeRun` makes for it, until stopped; returns
    /// every file of every window. `windowEnded` gets each window's own result as it ends
    /// (for the `--on-file` commands of its files).
    ///
    /// `makeStandbyRun` (`--between-windows standby`): the run that makes only clips between
    /// the windows, until the camera is needed for the next (nil: the camera is closed).
    public func run(makeRun: (ScheduleWindow) throws(CamrecError) -> any WindowRun,
                    makeStandbyRun: ((RecordingWindow) throws(CamrecError) -> any WindowRun)? = nil,
                    windowEnded: (RecordingResult) -> Void = { _ in },
                    events: @escaping @Sendable (RecordingEvent) -> Void) throws(CamrecError) -> RecordingResult {
        var machine = self.machine
        var total = RecordingResult(reason: .signal, files: [], droppedFrames: 0)
        var numbered = Numbering()
        while true {
            if let stop = state.withLock({ $0.stop }) {
                total.reason = stop
                return total
            }
            switch machine.next(at: clock.now()) {
            case .idle(let until):
                _ = clock.wait(until: until)
            case .wait(let until, let next, let announce):
                if announce { events(.schedule(ScheduleLine(.waiting, next, utc: utc))) }
                state.withLock { $0.next = next }
                let now = clock.now().wall
                guard let makeStandbyRun, until.seconds - now.seconds >= ScheduleSettings.shortestStandby else {
                    _ = clock.wait(until: until)
                    continue
                }
                // Clips only, until the camera is needed for the next window.
                let gap = RecordingWindow(start: now, end: until)
                let result = try record(ScheduleWindow(start: now.seconds, end: until.seconds), run: try makeStandbyRun(gap),
                                        numbered: &numbered, events: events)
                windowEnded(result)
                total.add(result)
                guard result.reason == .maxDuration else { return total }
            case .record(let window):
                events(.schedule(ScheduleLine(.recording, window, utc: utc)))
                let result = try record(window, run: try makeRun(window), numbered: &numbered, events: events)
                machine.recorded(window, at: clock.now())
                windowEnded(result)
                total.add(result)
                // The window's end stops its run as --max-duration would; anything else ends the schedule.
                guard result.reason == .maxDuration else { return total }
            }
        }
    }

    /// Movies and clips of the earlier windows: a window's are numbered on from them.
    private struct Numbering: Sendable {
        var movies = 0
        var clips = 0
    }

    /// Records `window` with `run`, which the controls reach meanwhile; its files and
    /// lines numbered on from the earlier windows' (`numbered`, updated).
    private func record(_ window: ScheduleWindow, run: any WindowRun, numbered: inout Numbering,
                        events: @escaping @Sendable (RecordingEvent) -> Void) throws(CamrecError) -> RecordingResult {
        let pending = state.withLock { state -> (StopReason, Int)? in
            state.current = run
            state.next = nil
            return state.stop.map { ($0, state.requests) }
        }
        defer { state.withLock { $0.current = nil } }
        // A stop asked for while the run was being made reaches it now.
        if let (reason, requests) = pending { run.requestStop(reason, requests: requests) }
        let before = numbered
        // The window's highest movie and clip numbers (retention may take files out of its result).
        let highest = Mutex(Numbering())
        let end = WallTime(seconds: window.end, nanoseconds: 0).iso8601(utc: utc)
        var result = try run.run { event in
            switch event {
            case .segment(var file):
                highest.withLock { $0.movies = max($0.movies, file.index ?? 0) }
                file.index = file.index.map { $0 + before.movies }
                events(.segment(file))
            case .clip(var file):
                highest.withLock { $0.clips = max($0.clips, file.index ?? 0) }
                file.index = file.index.map { $0 + before.clips }
                events(.clip(file))
            case .clipStarted(var line):
                line.clip += before.clips
                events(.clipStarted(line))
            case .motion(var line):
                line.clip = line.clip.map { $0 + before.clips }
                events(.motion(line))
            case .sound(var line):
                line.clip = line.clip.map { $0 + before.clips }
                events(.sound(line))
            case .started(var start):
                start.windowEnd = end
                events(.started(start))
            case .stopping(.maxDuration):
                // The window's end (or its --max-duration): its segment line says the rest.
                break
            default:
                events(event)
            }
        }
        let seen = highest.withLock { $0 }
        let indexes = { (kind: String) in result.files.compactMap { $0.kind == kind ? $0.index : nil }.max() ?? 0 }
        numbered.movies += max(seen.movies, indexes("movie"))
        numbered.clips += max(seen.clips, indexes("clip"))
        for index in result.files.indices {
            switch result.files[index].kind {
            case "movie": result.files[index].index = result.files[index].index.map { $0 + before.movies }
            case "clip": result.files[index].index = result.files[index].index.map { $0 + before.clips }
            default: break
            }
        }
        return result
    }
}

extension ScheduledRun: ControlledRun {
    public var cameraRecorders: [Recorder] { state.withLock { $0.current }?.cameraRecorders ?? [] }

    public func requestStop(_ reason: StopReason, requests: Int) {
        let current = state.withLock { state -> (any WindowRun)? in
            if state.stop == nil { state.stop = reason }
            state.requests += max(1, requests)
            return state.current
        }
        current?.requestStop(reason, requests: requests)
        clock.wake()
    }

    public var idleReason: String? {
        guard let next = state.withLock({ $0.current == nil ? $0.next : nil }) else { return nil }
        let line = ScheduleLine(.waiting, next, utc: utc)
        return "waiting for the schedule's next window (\(RecordingPrinter.civil(line.start)) to \(RecordingPrinter.civil(line.end))): the camera is closed"
    }

    public func splitNow() -> Bool { state.withLock { $0.current }?.splitNow() ?? false }
    public func status() -> RecorderStatus? { state.withLock { $0.current }?.status() }
    public func clipNow(after: TimeSpec?, still: Bool) -> Result<ClipTrigger, CamrecError>? {
        state.withLock { $0.current }?.clipNow(after: after, still: still)
    }
}

extension RecordingResult {
    /// Adds a window's result to the run's: every file, the frames lost, and its last words.
    mutating func add(_ window: RecordingResult) {
        reason = window.reason
        files += window.files
        droppedFrames += window.droppedFrames
        corruptFrames += window.corruptFrames
        if let shed = window.shedFrames { shedFrames = (shedFrames ?? 0) + shed }
        if let message = window.message { self.message = message }
        if let interval = window.keyframeInterval { keyframeInterval = max(keyframeInterval ?? 0, interval) }
        if let lost = window.droppedAudioMs { droppedAudioMs = (droppedAudioMs ?? 0) + lost }
        if let ppm = window.audioClockPPM { audioClockPPM = ppm }
        if let layout = window.layout { self.layout = layout }
        if let lost = window.lostMovies { lostMovies = (lostMovies ?? []) + lost }
        if let lapse = window.timelapse { timelapse = lapse }
    }
}

/// The JSON `schedule` line: camrec waits for a window with the camera closed, or starts
/// recording one.
public struct ScheduleLine: Sendable, Codable, Equatable {
    /// What camrec does now.
    public enum State: String, Sendable, Codable {
        /// The camera is closed until the window (it opens a moment before its start).
        case waiting
        /// The window's recording starts (its movie ends at the window's end).
        case recording
    }

    public var state: State
    /// The window's start and end, ISO 8601 with the zone (UTC with `--utc`).
    public var start: String
    public var end: String
    /// The same, in milliseconds since 1970.
    public var startMs: Int64
    public var endMs: Int64

    public init(_ state: State, _ window: ScheduleWindow, utc: Bool) {
        self.state = state
        let (start, end) = (WallTime(seconds: window.start, nanoseconds: 0), WallTime(seconds: window.end, nanoseconds: 0))
        self.start = start.iso8601(utc: utc)
        self.end = end.iso8601(utc: utc)
        startMs = start.unixMilliseconds
        endMs = end.unixMilliseconds
    }
}

/// `--schedule` as the record command asks for it: the windows, and the zone they are in.
public struct ScheduleSettings: Sendable, Equatable {
    /// The windows.
    public var schedule: Schedule
    /// `--utc`: the windows are UTC; otherwise the machine's local time.
    public var utc: Bool
    /// `--between-windows standby`: between the windows the camera stays open making only
    /// event clips; false: it is closed.
    public var standbyBetween = false

    /// A gap between windows shorter than this is waited out with the camera closed, even
    /// with `--between-windows standby` (opening it would catch next to nothing).
    public static let shortestStandby: Int64 = 5

    /// `--between-windows WHAT` as given: whether it asks for standby. Usage errors: without
    /// `--schedule`, a value other than closed or standby, standby without clips or with
    /// `--standby` (which makes only clips already).
    public static func standbyBetween(_ given: String?, scheduled: Bool, clips: Bool, standby: Bool) throws(CamrecError) -> Bool {
        guard let given else { return false }
        guard scheduled else {
            throw OptionValue.refusal("--between-windows needs --schedule SPEC, the windows it is between")
        }
        switch given {
        case "closed":
            return false
        case "standby":
            guard clips else {
                throw OptionValue.refusal("--between-windows standby makes event clips between the windows: give what triggers them, e.g. --on-motion, --on-sound -30 or --post-roll 10s for ctl clip")
            }
            guard !standby else {
                throw OptionValue.refusal("--standby makes only clips, in the windows and between them alike: leave out --between-windows, or record the windows' movies without --standby")
            }
            return true
        default:
            throw OptionValue.refusal("--between-windows \(given): give closed (the camera closed between the windows) or standby (event clips between them)")
        }
    }

    /// How long before a window starts the camera opens, so that the movie's first frame
    /// is the first captured at the start: 3 s (a camera and its encoder start in about a
    /// second), and `--settle`'s longest wait on top.
    public static let cameraLead = TimeSpec.seconds(3)

    public init(schedule: Schedule, utc: Bool) {
        self.schedule = schedule
        self.utc = utc
    }

    /// The zone the windows are in.
    public var zone: any UTCOffsets { utc ? UTCZone() : LocalZone() }
}

import FoundationEssentials

/// `--timelapse T`: the movie keeps one camera frame every T of capture time and plays
/// the kept frames back at its own frame rate (`TimeLapseGrid`). `--max-duration`,
/// `--segment` and `--still-every` stay in capture time ("record for 8 hours, a file per
/// hour"); a movie's duration in results is its playing time.
public struct TimeLapse: Sendable, Equatable {
    /// Capture time between two kept frames.
    public let interval: TimeSpec

    /// A time-lapse keeping one frame every `interval` (positive).
    public init(interval: TimeSpec) {
        self.interval = interval
    }

    /// `--timelapse` as given; nil when it was not. Refuses (exit 64) what is not a
    /// positive duration.
    public static func parse(_ text: String?) throws(CamrecError) -> TimeLapse? {
        guard let interval = try OptionValue.parse("--timelapse", text, { (text: String) throws(ValueError) in try TimeSpec.parse(text) })
        else { return nil }
        guard interval.nanoseconds > 0 else {
            throw OptionValue.refusal("--timelapse \(text ?? "0") keeps no time between frames: give the capture time between two kept frames, e.g. --timelapse 10s")
        }
        return TimeLapse(interval: interval)
    }

    /// The rate at which kept frames are captured: one per interval (the grid the gate
    /// reckons `--max-duration`, `--segment` and lost frames on).
    public var captureRate: FrameRateValue {
        let nanoseconds = Int(clamping: interval.nanoseconds)
        return FrameRateValue(numerator: 1_000_000_000, denominator: max(1, nanoseconds))
    }

    /// How much faster than real time the movie plays at `movieRate` (10 s at 30 fps: 300).
    public func speedUp(at movieRate: FrameRateValue) -> Double {
        interval.seconds * movieRate.framesPerSecond
    }

    /// Refuses (exit 64) an interval no longer than one frame of a camera at `cameraRate`,
    /// which would keep every frame.
    public func check(cameraRate: FrameRateValue) throws(CamrecError) {
        let frame = 1 / max(cameraRate.framesPerSecond, 0.001)
        guard interval.seconds > frame + 1e-9 else {
            throw CamrecError(.usage, "--timelapse \(interval.description) is not longer than one camera frame at \(cameraRate.description) fps ("
                              + String(cFormat: "%.3f s): give a longer interval, e.g. --timelapse 1s, or leave it out to record every frame", frame))
        }
    }

    /// Refuses (exit 64) a `--max-duration` that holds no kept frame: the run keeps
    /// round(limit / interval) frames, none below half an interval.
    public func check(limit: TimeSpec?) throws(CamrecError) {
        guard let limit, limit.nanoseconds * 2 < interval.nanoseconds else { return }
        let least = TimeSpec(nanoseconds: (interval.nanoseconds + 1) / 2)
        throw OptionValue.refusal("--max-duration \(limit.description) keeps no frame of --timelapse \(interval.description) (one per \(interval.description) of capture time): give at least \(least.description), or a shorter interval")
    }

    /// The time-lapse as the JSON lines report it; `framesKept` in the result.
    public func report(movieRate: FrameRateValue, framesKept: Int? = nil) -> TimeLapseReport {
        TimeLapseReport(interval: interval.seconds, speedup: (speedUp(at: movieRate) * 1000).rounded() / 1000,
                        framesKept: framesKept)
    }
}

/// A time-lapse in the `started` and `result` lines.
public struct TimeLapseReport: Sendable, Equatable, Codable {
    /// Seconds of capture time between two kept frames (`--timelapse`).
    public var interval: Double
    /// How many times faster than real time the movie plays (interval × fps).
    public var speedup: Double
    /// The result: camera frames kept, in every movie of the run.
    public var framesKept: Int?
}

extension RecordConfig {
    /// The time `frames` recorded stand for where `--max-duration` is compared with it
    /// (progress, `ctl status`): a time-lapse's capture time (one interval per kept
    /// frame), else `movieSeconds`, the video recorded.
    func elapsed(frames: Int, movieSeconds: Double) -> Double {
        guard let timelapse else { return movieSeconds }
        return (Double(frames) * timelapse.interval.seconds * 1000).rounded() / 1000
    }
}

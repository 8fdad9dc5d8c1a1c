/// `--on-sound LEVEL[:T]`: a clip is triggered when the sound stays at or above `level`
/// dBFS for at least `hold` (default 200 ms).
public struct SoundTriggerSettings: Sendable, Equatable {
    /// The level, in dBFS (0 is full scale; -30 is a raised voice near a laptop's microphone).
    public var level: Double
    /// How long the sound must stay at or above it, in nanoseconds.
    public var hold: UInt64

    /// The default for T.
    public static let defaultHold: UInt64 = 200_000_000
    /// How often `level` measures (and so the finest T): 50 ms.
    static let interval: UInt64 = 50_000_000

    public init(level: Double, hold: UInt64 = defaultHold) {
        self.level = level
        self.hold = hold
    }

    /// `LEVEL[:T]` as given to `--on-sound` (`-30`, `-30dB`, `-25:500ms`); usage errors
    /// say what is wrong with an example.
    public static func parse(_ text: String) throws(CamrecError) -> SoundTriggerSettings {
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        var number = parts[0]
        for unit in ["dBFS", "dbfs", "dB", "db"] where number.hasSuffix(unit) {
            number = String(number.dropLast(unit.count))
            break
        }
        guard let level = Double(number), level.isFinite else {
            throw OptionValue.refusal("--on-sound \(text): give the level in dBFS, a number up to 0, and the time it must last, e.g. --on-sound -30 or --on-sound -30:500ms")
        }
        guard level <= 0, level >= -100 else {
            throw OptionValue.refusal("--on-sound \(text): the level is in dBFS, from -100 (near silence) to 0 (full scale), e.g. --on-sound -30")
        }
        var hold = defaultHold
        if parts.count == 2 {
            let time: TimeSpec
            do {
                time = try TimeSpec.parse(parts[1])
            } catch {
                throw OptionValue.refusal("--on-sound \(text): after the colon give how long the sound must last, e.g. --on-sound -30:500ms")
            }
            guard time.nanoseconds >= Int64(interval) else {
                throw OptionValue.refusal("--on-sound \(text): the sound is measured every 50 ms: give at least 50ms, e.g. --on-sound -30:200ms")
            }
            hold = UInt64(time.nanoseconds)
        }
        return SoundTriggerSettings(level: level, hold: hold)
    }
}

/// Decides from the sound's levels when `--on-sound` triggers: once the sound has stayed at
/// or above the level for `hold`, a trigger at the start of that loud stretch (so a clip's
/// pre-roll counts from the sound's onset); while it stays loud, a quiet extension every
/// half second (the clip goes on, as motion that goes on extends its clip: each keeps the
/// clip going until half a second and the post-roll after it); a new trigger
/// only after the sound has fallen below the level. Fed the level of each measured
/// stretch, in order, on the sound's running time.
struct SoundTrigger: Sendable, Equatable {
    /// A trigger: where the loud stretch began, when it had lasted `hold` (the end of the
    /// stretch that confirmed it), and its loudest level so far.
    struct Trigger: Sendable, Equatable {
        var onset: UInt64
        var confirmed: UInt64
        var level: Double
    }

    /// What a measured stretch means.
    enum Outcome: Sendable, Equatable {
        /// The sound has been loud for `hold`: a trigger at its onset.
        case trigger(Trigger)
        /// Still loud, half a second after the last trigger or extension: extend the clip to
        /// this time.
        case stillLoud(UInt64)
    }

    /// How often a sound that stays loud extends its clip.
    static let extensionInterval: UInt64 = 500_000_000

    let settings: SoundTriggerSettings
    /// The start of the current loud stretch; nil while the sound is below the level.
    private var loudSince: UInt64?
    private var loudest = -Double.infinity
    /// When this loud stretch triggered or was last extended; nil: not yet.
    private var lastSaid: UInt64?

    init(_ settings: SoundTriggerSettings) {
        self.settings = settings
    }

    /// The stretch from `time` lasting `duration` measured `level` dBFS (the loudest
    /// channel's RMS): the trigger it completes, if any.
    mutating func feed(time: UInt64, duration: UInt64, level: Double) -> Outcome? {
        guard level >= settings.level else {
            loudSince = nil
            loudest = -.infinity
            lastSaid = nil
            return nil
        }
        let onset = loudSince ?? time
        loudSince = onset
        loudest = max(loudest, level)
        let end = time &+ duration
        if let said = lastSaid {
            guard end >= said &+ Self.extensionInterval else { return nil }
            lastSaid = end
            return .stillLoud(end)
        }
        guard end >= onset &+ settings.hold else { return nil }
        lastSaid = end
        return .trigger(Trigger(onset: onset, confirmed: end, level: loudest))
    }
}

/// The JSON `sound` line: `--on-sound` heard the sound stay above its level.
public struct SoundLine: Sendable, Codable, Equatable {
    /// When the loud sound began, in the run (seconds of recorded video before it).
    public var time: Double
    /// Its loudest level until the trigger, in dBFS (the loudest channel's RMS over 50 ms).
    public var level: Double
    /// The clip it started or extended; nil when no clip could be made. Several cameras:
    /// the first camera's (the sound is the run's; every camera makes a clip).
    public var clip: Int?
}

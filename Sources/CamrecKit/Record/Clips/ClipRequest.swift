/// The event clips a recording asks for (`--pre-roll`, `--post-roll`, `--max-clip`,
/// `--clips`, `--standby`, `--on-motion`, `--motion-sensitivity`, `--motion-mask`,
/// `--live-photo`, `--clip-start`), as given, and the rules that turn them into `ClipSettings` and
/// `MotionSettings`: any of them enables clips, a clip cannot be empty, the motion
/// options need `--on-motion`, and clips are written in the movie's container.
public struct ClipRequest: Sendable, Equatable {
    /// `--pre-roll T`.
    public var preRoll: String?
    /// `--post-roll T`.
    public var postRoll: String?
    /// `--max-clip T`.
    public var maxClip: String?
    /// `--clips PATTERN`.
    public var pattern: String?
    /// `--standby`: clips only, no movie.
    public var standby = false
    /// `--on-motion`.
    public var onMotion = false
    /// `--motion-sensitivity S`.
    public var motionSensitivity: String?
    /// `--motion-mask FILE`, read once the picture's size is known.
    public var motionMask: String?
    /// `--live-photo`.
    public var livePhoto = false
    /// `--on-sound LEVEL[:T]`.
    public var onSound: String?
    /// `--clip-start exact|keyframe`.
    public var start: String?

    public init(preRoll: String? = nil, postRoll: String? = nil, maxClip: String? = nil, pattern: String? = nil,
                standby: Bool = false, onMotion: Bool = false, motionSensitivity: String? = nil,
                motionMask: String? = nil, livePhoto: Bool = false) {
        self.preRoll = preRoll
        self.postRoll = postRoll
        self.maxClip = maxClip
        self.pattern = pattern
        self.standby = standby
        self.onMotion = onMotion
        self.motionSensitivity = motionSensitivity
        self.motionMask = motionMask
        self.livePhoto = livePhoto
    }

    /// Whether any clip option is given.
    public var isWanted: Bool {
        [preRoll, postRoll, maxClip, pattern, motionMask, motionSensitivity, start].contains { $0 != nil }
            || livePhoto || standby || onMotion || onSound != nil
    }

    /// `--on-sound`'s trigger (nil without it); `hasSound`: the run records sound.
    public func soundTrigger(hasSound: Bool) throws(CamrecError) -> SoundTriggerSettings? {
        guard let onSound else { return nil }
        let settings = try SoundTriggerSettings.parse(onSound)
        guard hasSound else {
            throw OptionValue.refusal("--on-sound listens to the recording's sound: add --audio SOURCE (camrec devices lists the sources), e.g. --audio default")
        }
        return settings
    }

    /// The clips (nil: no clip option, triggers make none) and the motion trigger (nil
    /// without `--on-motion`) of a recording into `output`, a `container` movie; `utc`:
    /// `--clips`' time fields are UTC. Every refusal is a usage error.
    public func resolve(output: String, container: MediaContainer, utc: Bool)
        throws(CamrecError) -> (settings: ClipSettings?, motion: MotionSettings?) {
        let preRoll = try OptionValue.parse("--pre-roll", self.preRoll) { (text: String) throws(ValueError) in try Self.length(text, zeroAllowed: true) }
        let postRoll = try OptionValue.parse("--post-roll", self.postRoll) { (text: String) throws(ValueError) in try Self.length(text, zeroAllowed: true) }
        let maxClip = try OptionValue.parse("--max-clip", self.maxClip) { (text: String) throws(ValueError) in try Self.length(text, zeroAllowed: false) }
        var naming: SegmentNaming?
        if let pattern {
            guard MediaContainer(recordingPath: pattern) == container else {
                throw OptionValue.refusal("--clips \(pattern): clips are written like the movie: end the pattern with .\(PathName.pathExtension(output))")
            }
            do {
                naming = try SegmentNaming(output: pattern, utc: utc)
            } catch {
                throw OptionValue.refusal("--clips: " + error.message)
            }
        }
        let sensitivity = try OptionValue.parse("--motion-sensitivity", motionSensitivity) { (text: String) throws(ValueError) -> Double in
            guard let value = Double(text), value >= 0, value <= 1 else { throw ValueError("give a number from 0 to 1, e.g. 0.5") }
            return value
        }
        var motion: MotionSettings?
        if onMotion {
            motion = MotionSettings(sensitivity: sensitivity ?? 0.5)
        } else if sensitivity != nil || motionMask != nil {
            throw OptionValue.refusal("\(sensitivity != nil ? "--motion-sensitivity" : "--motion-mask") needs --on-motion")
        }
        let start = try OptionValue.parse("--clip-start", self.start) { (text: String) throws(ValueError) -> ClipStart in
            guard let value = ClipStart(rawValue: text) else { throw ValueError("give exact or keyframe") }
            return value
        }
        guard preRoll != nil || postRoll != nil || maxClip != nil || livePhoto || naming != nil || standby || motion != nil
                || onSound != nil || start != nil else {
            return (nil, motion)
        }
        var settings = ClipSettings(preRoll: preRoll ?? .zero, postRoll: postRoll ?? ClipSettings.defaultPostRoll,
                                    maxClip: maxClip ?? ClipSettings.defaultMaxClip)
        settings.livePhoto = livePhoto
        settings.start = start ?? .keyframe
        settings.pattern = naming
        if settings.preRoll.nanoseconds + settings.postRoll.nanoseconds == 0 {
            throw OptionValue.refusal("--pre-roll and --post-roll are both 0: a clip would be empty; give one of them a length, e.g. --post-roll 10s")
        }
        return (settings, motion)
    }

    private static func length(_ text: String, zeroAllowed: Bool) throws(ValueError) -> TimeSpec {
        let value = try TimeSpec.parse(text)
        guard value.nanoseconds > 0 || (zeroAllowed && value.nanoseconds == 0) else {
            throw ValueError(zeroAllowed ? "give a length of 0 or more, e.g. 10s" : "give a length above 0, e.g. 2m")
        }
        return value
    }
}

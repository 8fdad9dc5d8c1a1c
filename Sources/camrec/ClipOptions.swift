import ArgumentParsing
import CamrecKit

/// The event-clip options of `camrec` (record).
enum ClipOptions {
    static let specs = [
        OptionSpec(["--pre-roll"], value: "T", help: "keep the last T of the encoded stream in memory: a clip starts T before its trigger (default: 0); enables clips", summary: "a clip starts T before its trigger"),
        OptionSpec(["--post-roll"], value: "T", help: "a clip goes on T after its last trigger (default: 10s); enables clips", summary: "a clip goes on T after it (default: 10s)"),
        OptionSpec(["--max-clip"], value: "T", help: "triggers during a clip extend it up to T in all (default: 5m); enables clips", summary: "a clip lasts at most T (default: 5m)"),
        OptionSpec(["--clips"], value: "PATTERN", help: "name clips with strftime fields of their start and/or a counter, as --segment names movies (clips/door-%Y%m%d-%H%M%S.mp4; --utc for UTC); the container of OUTPUT (default: NAME-clip-0001.EXT); enables clips", summary: "name clips: a pattern (clips/%Y%m%d-%H%M.mp4)"),
        OptionSpec(["--standby"], help: "record no movie, only clips on triggers (OUTPUT names them and picks the container; nothing is written to it); enables clips", summary: "record no movie, only clips"),
        OptionSpec(["--on-motion"], help: "a change in the picture triggers a clip (small grey frames compared a few times a second; noise and slow light changes ignored); enables clips", summary: "a change in the picture makes a clip"),
        OptionSpec(["--motion-sensitivity"], value: "S", help: "with --on-motion: 0 (only large, clear changes) to 1 (small, faint ones); default 0.5", summary: "0 (large changes only) to 1 (faint); 0.5"),
        OptionSpec(["--motion-mask"], value: "FILE", help: "with --on-motion: a PNG (any size, scaled to the picture) whose dark regions are not watched; a missing file or one that is not a PNG is refused (exit 65)", summary: "a PNG whose dark regions are not watched"),
        OptionSpec(["--live-photo"], help: "each clip also gets the still of its trigger's frame (a Live Photo); enables clips", summary: "each clip also gets its trigger's still"),
    ]

    static let discussion = """
        Event clips (--pre-roll, --post-roll, --max-clip): `camrec ctl SOCKET clip [--after T]`,
        SIGUSR2 or the key c writes NAME-clip-0001.EXT beside the movie, from the pre-roll
        before the trigger to the post-roll after it, alongside the movie (which it never
        disturbs). The clip starts exactly there: its first frames are cut from the keyframe
        before it as camrec trim cuts. A trigger while a clip is written extends it.
        --live-photo (or ctl clip --still) also writes the still of the trigger's frame,
        named in the clip's line. --standby records no movie: only the clips.
        --on-motion makes a change in the picture a trigger (a JSON motion line each).
        """
}

/// The clips asked for on the command line, typed once.
struct ClipChoice {
    /// Nil: no clip option given, triggers make no clips.
    var settings: ClipSettings?
    /// `--standby`: clips only, no movie.
    var standby = false
    /// `--on-motion`; nil without.
    var motion: MotionSettings?
    /// `--motion-mask`, read once the picture's size is known.
    var motionMask: String?
    /// `--clips PATTERN` as given, and `--utc`: several cameras make a pattern per camera of it.
    var patternText: String?
    var utc = false

    init(_ parsed: ParsedArguments, output: String, container: MediaContainer) throws(UsageError) {
        let preRoll = try parsed.value("--pre-roll") { (text: String) throws(ValueError) in try Self.length(text, zeroAllowed: true) }
        let postRoll = try parsed.value("--post-roll") { (text: String) throws(ValueError) in try Self.length(text, zeroAllowed: true) }
        let maxClip = try parsed.value("--max-clip") { (text: String) throws(ValueError) in try Self.length(text, zeroAllowed: false) }
        let livePhoto = parsed.flag("--live-photo")
        var pattern: SegmentNaming?
        utc = parsed.flag("--utc")
        patternText = parsed.value("--clips")
        if let text = parsed.value("--clips") {
            guard MediaContainer(recordingPath: text) == container else {
                throw UsageError("--clips \(text): clips are written like the movie: end the pattern with .\(PathName.pathExtension(output))")
            }
            do {
                pattern = try SegmentNaming(output: text, utc: parsed.flag("--utc"))
            } catch {
                throw UsageError("--clips: " + error.message)
            }
        }
        standby = parsed.flag("--standby")
        let sensitivity = try parsed.value("--motion-sensitivity") { (text: String) throws(ValueError) -> Double in
            guard let value = Double(text), value >= 0, value <= 1 else { throw ValueError("give a number from 0 to 1, e.g. 0.5") }
            return value
        }
        motionMask = parsed.value("--motion-mask")
        if parsed.flag("--on-motion") {
            motion = MotionSettings(sensitivity: sensitivity ?? 0.5)
        } else if sensitivity != nil || motionMask != nil {
            throw UsageError("\(sensitivity != nil ? "--motion-sensitivity" : "--motion-mask") needs --on-motion")
        }
        guard preRoll != nil || postRoll != nil || maxClip != nil || livePhoto || pattern != nil || standby || motion != nil else { return }
        var chosen = ClipSettings(preRoll: preRoll ?? .zero, postRoll: postRoll ?? ClipSettings.defaultPostRoll,
                                  maxClip: maxClip ?? ClipSettings.defaultMaxClip)
        chosen.livePhoto = livePhoto
        chosen.pattern = pattern
        if chosen.preRoll.nanoseconds + chosen.postRoll.nanoseconds == 0 {
            throw UsageError("--pre-roll and --post-roll are both 0: a clip would be empty; give one of them a length, e.g. --post-roll 10s")
        }
        settings = chosen
    }

    /// Whether any clip option is given.
    static func isWanted(_ parsed: ParsedArguments) -> Bool {
        ["--pre-roll", "--post-roll", "--max-clip", "--clips", "--motion-mask", "--motion-sensitivity"].contains { parsed.value($0) != nil }
            || ["--live-photo", "--standby", "--on-motion"].contains { parsed.flag($0) }
    }

    private static func length(_ text: String, zeroAllowed: Bool) throws(ValueError) -> TimeSpec {
        let value = try TimeSpec.parse(text)
        guard value.nanoseconds > 0 || (zeroAllowed && value.nanoseconds == 0) else {
            throw ValueError(zeroAllowed ? "give a length of 0 or more, e.g. 10s" : "give a length above 0, e.g. 2m")
        }
        return value
    }
}

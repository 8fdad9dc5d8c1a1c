import CamrecCore
import MediaValues

/// Text recognition while recording (`--text`, `--text-every T`, `--text-changes`,
/// `--text-lang L`, `--text-region X,Y,W,H`): which frames are read and how, checked
/// before any camera is opened. The frames are read by `TextReader`, on a thread of its own.
public struct RecordingTextSettings: Sendable, Equatable {
    /// `--text-every T`: a frame every T of the movie's camera time (the first at its
    /// start); nil: only on request (`camrec ctl SOCKET text`).
    public var every: TimeSpec?
    /// `--text-changes`: a periodic reading is reported only when its text differs from
    /// the last one reported.
    public var changesOnly: Bool
    /// `--text-lang`: the languages' models, in Tesseract's order of preference.
    public var languages: [String]
    /// `--text-region`: the part of each frame read (nil: all of it).
    public var region: TextRegion?
    /// Words Tesseract is less sure of (0-1) are left out.
    public var minimumConfidence: Double
    /// `--text`: each still taken gets its text read (a `text` line) and kept beside it
    /// (NAME.txt).
    public var stills = false

    public init(every: TimeSpec?, changesOnly: Bool = false, languages: [String] = ["eng"], region: TextRegion? = nil,
                minimumConfidence: Double = TextRequest.defaultMinimumConfidence) {
        self.every = every
        self.changesOnly = changesOnly
        self.languages = languages
        self.region = region
        self.minimumConfidence = minimumConfidence
    }

    /// The settings the options ask for (nil: no text is read), from the values as given
    /// (nil: not given). `--text` alone reads text on request and the stills' text;
    /// the others need it or `--text-every`.
    public static func parse(text: Bool, every: String?, changes: Bool, lang: String?,
                             region: String?) throws(CamrecError) -> RecordingTextSettings? {
        guard text || every != nil else {
            let given = [(changes, "--text-changes"), (lang != nil, "--text-lang"), (region != nil, "--text-region")]
            if let option = given.first(where: { $0.0 })?.1 {
                throw OptionValue.refusal("\(option) goes with --text-every T (or --text): add --text-every 5s, say")
            }
            return nil
        }
        if changes, every == nil {
            throw OptionValue.refusal("--text-changes filters the readings of --text-every: add --text-every T, e.g. --text-every 5s")
        }
        let period = try OptionValue.parse("--text-every", every) { (value: String) throws(ValueError) -> TimeSpec in
            let time = try TimeSpec.parse(value)
            guard time.nanoseconds > 0 else { throw ValueError("give a time above 0, e.g. 5s or 1m") }
            return time
        }
        var settings = RecordingTextSettings(every: period, changesOnly: changes,
                                             languages: try TextRequest.languages(lang ?? "eng", option: "--text-lang"))
        settings.stills = text
        if let region {
            guard let parsed = TextRegion(parsing: region) else {
                throw OptionValue.refusal("--text-region '\(region)': give X,Y,W,H in the picture's pixels, e.g. 0,600,1280,120")
            }
            settings.region = parsed
        }
        return settings
    }

    /// Refuses a `--text-region` that lies outside the movie's frames of `size` (found
    /// once the camera is, before anything is recorded).
    public func check(frameSize size: FrameSize) throws(CamrecError) {
        guard let region, region.x >= size.width || region.y >= size.height else { return }
        throw CamrecError(.usage, "--text-region \(region.x),\(region.y),\(region.width),\(region.height) lies outside the \(size.width)x\(size.height) picture: give a part of it")
    }

    /// Loads libtesseract and checks the languages' models, before anything is recorded:
    /// a missing one stops the run with the package to install (exit 69), as `camrec text` does.
    public func checkInstalled() throws(CamrecError) {
        _ = try TesseractLibrary.prepare(languages)
    }
}

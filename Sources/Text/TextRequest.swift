import CamrecCore
import MediaValues
import Stills

/// `camrec text IMAGE|MOVIE…`: what to read the text of and how, checked before any file
/// is opened or libtesseract loaded.
public struct TextRequest: Sendable, Equatable {
    /// The stills (.jpg, .jpeg, .png) and movies, in order.
    public var inputs: [String]
    /// The languages' models, in Tesseract's order of preference.
    public var languages: [String]
    /// `--region X,Y,W,H`: the part of each picture to read (nil: all of it).
    public var region: TextRegion?
    /// `--every T`: a movie's frame every T, the first at its start.
    public var every: TimeSpec
    /// `--min-confidence C`: words Tesseract is less sure of (0-1) are left out.
    public var minimumConfidence: Double

    /// Words below this confidence are left out unless `--min-confidence` says otherwise:
    /// noise (the test pattern's snow, a noisy sensor) reads as short words of 0.0-0.67, text on a camera's
    /// picture as 0.8-0.97 (docs/text.md).
    public static let defaultMinimumConfidence = 0.7

    /// A movie is read every 10 s when `--every` is not given.
    public static let defaultEvery = TimeSpec(nanoseconds: 10_000_000_000)

    /// Checks the values as given on the command line (nil: not given).
    public init(inputs: [String], languages: String?, region: String?, every: String?,
                minimumConfidence: String? = nil) throws(CamrecError) {
        guard !inputs.isEmpty else {
            throw CamrecError(.usage, "give the stills or movies to read the text of, e.g. camrec text label.jpg")
        }
        self.inputs = inputs
        self.languages = try Self.languages(languages ?? "eng")
        if let region {
            guard let parsed = TextRegion(parsing: region) else {
                throw CamrecError(.usage, "--region '\(region)': give X,Y,W,H in the picture's pixels, e.g. 0,600,1280,120")
            }
            self.region = parsed
        }
        if let minimumConfidence {
            guard let value = Double(minimumConfidence), value >= 0, value <= 1 else {
                throw CamrecError(.usage, "--min-confidence '\(minimumConfidence)': give a number from 0 to 1, e.g. 0.5")
            }
            self.minimumConfidence = value
        } else {
            self.minimumConfidence = Self.defaultMinimumConfidence
        }
        if let every {
            guard let step = try? TimeSpec.parse(every), step.nanoseconds > 0 else {
                throw CamrecError(.usage, "--every '\(every)': give a time above 0, e.g. 5s or 1m")
            }
            guard inputs.contains(where: { !Self.isStill($0) }) else {
                throw CamrecError(.usage, "--every applies to movies, and only stills are given: leave it out")
            }
            self.every = step
        } else {
            self.every = Self.defaultEvery
        }
    }

    /// `eng+deu` as a list; each name as Tesseract's models are named (letters, digits, `_`).
    package static func languages(_ text: String, option: String = "--lang") throws(CamrecError) -> [String] {
        let names = text.split(separator: "+", omittingEmptySubsequences: false).map(String.init)
        for name in names {
            guard !name.isEmpty, name.utf8.allSatisfy({ ($0 >= 97 && $0 <= 122) || ($0 >= 65 && $0 <= 90) || ($0 >= 48 && $0 <= 57) || $0 == 95 })
            else {
                throw CamrecError(.usage, "\(option) '\(text)': give Tesseract's language names joined by +, e.g. eng or eng+deu")
            }
        }
        return names
    }

    /// Whether `path` names a still (read as one picture) rather than a movie.
    public static func isStill(_ path: String) -> Bool {
        StillFormat(path: path) != nil
    }
}

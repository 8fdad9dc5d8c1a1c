import CamrecCore
import Recover

/// What a file's name says about where it belongs: camrec names a run's movies
/// `NAME-0001.EXT` (or after `--segment` strftime fields), several cameras' `NAME-1-0001.EXT`,
/// clips `NAME-clip-0001.EXT`, stills `NAME-still-0001.jpg`, and files being written
/// `NAME.partial.EXT`. The series is the name without its counter, time fields, collision
/// suffix and `.partial` marker: `cam-0001.mp4`, `cam-0002.partial.mp4`, `cam-clip-0001.mp4`
/// and `cam-still-0001.jpg` all belong to `cam`; `lab-1-0001.mp4` to `lab-1` (camera 1);
/// so does what `camrec recover` made of a partial one, `cam-0003-recovered-20261201-100430.mp4`.
public struct RecordingName: Sendable, Equatable {
    /// The series' name (no folder, no extension).
    public var series: String
    /// What the name marks: a clip, a still, or (neither) a movie.
    public var marker: Marker
    /// The extension, lowercased, without its dot ("" when none).
    public var fileExtension: String
    /// Whether it is camrec's `NAME.partial.EXT` (a recording not finalised).
    public var partial: Bool

    /// The word before the counter.
    public enum Marker: Sendable, Equatable {
        case none, clip, still
    }

    /// Parses a file name (no folder). `series` overrides the series' name (an OUTPUT
    /// pattern given to `camrec ls` says it).
    public init(_ fileName: String, series given: String? = nil) {
        partial = RecoverNaming.finalName(ofPartial: fileName) != nil
        let plain = RecoverNaming.finalName(ofPartial: fileName) ?? fileName
        let (stem, ext) = OutputFile.split(plain)
        fileExtension = String(ext.dropFirst()).lowercased()
        var tokens = stem.split(separator: "-", omittingEmptySubsequences: false).map(String.init)
        func digits(_ token: String) -> Bool { !token.isEmpty && token.allSatisfy { $0.isASCII && $0.isNumber } }
        // A collision suffix (-2) after a counter or time field.
        if tokens.count >= 3, let last = tokens.last, digits(last), last.count < 4,
           digits(tokens[tokens.count - 2]), tokens[tokens.count - 2].count >= 4 {
            tokens.removeLast()
        }
        // Counters and time fields: trailing groups of four digits or more (a camera's
        // number, one or two digits, stays: lab-1-0001 is camera 1's series).
        while tokens.count > 1, let last = tokens.last, Self.isCounterOrTime(last) { tokens.removeLast() }
        // What `camrec recover` made of a partial file: NAME-recovered[-STAMP].EXT belongs
        // where NAME does.
        if tokens.count > 1, tokens.last == "recovered" {
            tokens.removeLast()
            while tokens.count > 1, let last = tokens.last, Self.isCounterOrTime(last) { tokens.removeLast() }
        }
        marker = .none
        if tokens.count > 1, let last = tokens.last {
            if last == "clip" { marker = .clip; tokens.removeLast() }
            else if last == "still" { marker = .still; tokens.removeLast() }
        }
        series = given ?? tokens.joined(separator: "-")
    }

    /// A counter (`0001`) or a strftime field's digits (`20261201`, `100430`, `2026_12_01`).
    private static func isCounterOrTime(_ token: String) -> Bool {
        let digitCount = token.filter { $0.isASCII && $0.isNumber }.count
        return digitCount >= 4 && token.allSatisfy { ($0.isASCII && $0.isNumber) || "_:.T".contains($0) }
            && token.first?.isNumber == true
    }

    /// Whether the extension is a movie's (`mp4`, `m4v`, `mov`, `qt`, `mkv`, `webm`).
    public var isMovieName: Bool { ["mp4", "m4v", "mov", "qt", "mkv", "webm"].contains(fileExtension) }

    /// Whether the extension is a still's (`jpg`, `jpeg`, `png`).
    public var isStillName: Bool { ["jpg", "jpeg", "png"].contains(fileExtension) }
}

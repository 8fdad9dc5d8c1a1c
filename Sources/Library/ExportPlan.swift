import CamrecCore
import MediaValues
import Recover

/// Which movies of a series an export reads, and into how many outputs: the movies that
/// hold frames captured in [from, to), split where their parameters differ (another size
/// or codec after a reconnect: never one broken file) and, with `--split-at-gaps`, where
/// time jumps; otherwise a gap inside an output starts a chapter. Made from ``LibraryFile``
/// values and a comparison of two movies: tested without files.
public struct ExportPlan: Sendable, Equatable {
    /// One output: its movies, in time order.
    public struct Output: Sendable, Equatable {
        /// The movies whose frames it holds.
        public var movies: [LibraryFile]
        /// The movies (paths) after a gap: each begins a chapter.
        public var chapterStarts: [String] = []
        /// The gaps between its movies.
        public var gaps: [SeriesGap] = []
        /// Why it is not one output with the one before (nil for the first): a gap with
        /// `--split-at-gaps`, or a difference of parameters.
        public var splitReason: String?
        /// Whether it follows the one before but for a difference of parameters (which
        /// `--reencode` joins), with the gap between them, if any.
        public var splitOnParameters = false
        public var gapBefore: SeriesGap?
        /// Joined by `--reencode`: why each part after the first could not be copied on.
        public var joinedReasons: [String] = []
    }

    /// With `--reencode`: the outputs in groups to be joined into one movie each, by
    /// encoding again; a group ends only where `--split-at-gaps` splits.
    public var reencodedGroups: [[Output]] {
        var groups: [[Output]] = []
        for output in outputs {
            if output.splitOnParameters, !groups.isEmpty {
                groups[groups.count - 1].append(output)
            } else {
                groups.append([output])
            }
        }
        return groups
    }

    /// The outputs, in time order.
    public var outputs: [Output]
    /// What a person should know: starts known only to the second, unreadable movies left out.
    public var warnings: [String] = []

    /// The plan for the frames of `series` captured in [`from`, `to`) (ms since 1970).
    /// `difference` says why a movie cannot follow another in one file (nil: it can).
    /// `countersAreSequential`: the movies are named by camrec's counter (an OUTPUT, not a
    /// pattern of time fields), so a counter skipped means movies are missing.
    ///
    /// - Throws: invalid input (exit 65) when no movie holds a frame of the range or when
    ///   a movie of the range is unfinished or unreadable (with the `camrec recover`
    ///   command to run), naming every such movie; exit 66 when movies of the range are
    ///   missing, naming them.
    public static func make(
        series: LibrarySeries, from: Int64, to: Int64, splitAtGaps: Bool, countersAreSequential: Bool = true,
        describe: (Int64) -> String,
        difference: (LibraryFile, LibraryFile) throws(CamrecError) -> String?
    ) throws(CamrecError) -> ExportPlan {
        var warnings: [String] = []
        let timed = series.movies.filter { $0.startMilliseconds != nil && $0.endMilliseconds != nil }
        // (A movie being recorded is the caller's to tell of.)
        for movie in series.movies where (movie.startMilliseconds == nil || movie.endMilliseconds == nil) && movie.writer == nil {
            warnings.append("\(movie.path) is left out: its time is unknown (\(movie.health.name)\(movie.note.map { ": \($0)" } ?? ""))")
        }
        let chosen = timed.filter { movie in
            guard let start = movie.startMilliseconds, let end = movie.endMilliseconds else { return false }
            return start < to && end > from
        }
        guard !chosen.isEmpty else {
            let span = series.startMilliseconds.flatMap { start in series.endMilliseconds.map { (start, $0) } }
            let runs = span.map { " (it runs from \(describe($0.0)) to \(describe($0.1))\(series.gaps.isEmpty ? "" : ", with gaps"))" } ?? ""
            throw CamrecError(.invalidInput, "no frame of \(series.name) was captured from \(describe(from)) to \(describe(to))\(runs)")
        }
        try refuseUnfinished(chosen)
        if countersAreSequential { try refuseMissing(timed, series: series.name, from: from, to: to, describe: describe) }
        for movie in chosen where movie.timeSource == .movieHeader {
            warnings.append(
                "\(movie.path) holds no capture time to the millisecond (its header's second is used): the cut there may be up to 1 s off"
            )
        }
        var outputs: [Output] = []
        var previous: LibraryFile?
        for movie in chosen {
            defer { previous = movie }
            guard let before = previous, var current = outputs.last else {
                outputs.append(Output(movies: [movie]))
                continue
            }
            let gap = series.gaps.first { $0.after == before.path && $0.before == movie.path }
            if let reason = try difference(before, movie) {
                outputs.append(Output(movies: [movie], splitReason: "\(movie.path) cannot follow \(before.path): \(reason)",
                                      splitOnParameters: true, gapBefore: gap))
                continue
            }
            if let gap {
                if splitAtGaps {
                    outputs.append(Output(movies: [movie], splitReason: "a \(gapText(gap)) before \(movie.path)"))
                    continue
                }
                current.chapterStarts.append(movie.path)
                current.gaps.append(gap)
            }
            current.movies.append(movie)
            outputs[outputs.count - 1] = current
        }
        return ExportPlan(outputs: outputs, warnings: warnings)
    }

    /// "gap of 2.012 s" or "overlap of 1.000 s" (the clock stepped back).
    static func gapText(_ gap: SeriesGap) -> String {
        let seconds = String(cFormat: "%.3f", abs(gap.seconds))
        return gap.isOverlap ? "time step back of \(seconds) s" : "gap of \(seconds) s"
    }

    /// Refuses a range that reaches into movies that are gone: between two consecutive
    /// movies named by camrec's counter (`cam-0002.mp4`, `cam-0005.mp4`) whose time has a
    /// hole that [from, to) overlaps, the ones in between are missing (camrec numbers a
    /// series' movies on across restarts; retention deletes the oldest first). Names made
    /// from time fields (`--segment` patterns) carry no counter and are not judged.
    private static func refuseMissing(
        _ movies: [LibraryFile], series: String, from: Int64, to: Int64, describe: (Int64) -> String
    ) throws(CamrecError) {
        for (previous, next) in zip(movies, movies.dropFirst()) {
            guard let before = counter(previous.path, series: series), let after = counter(next.path, series: series),
                  after.number > before.number + 1,
                  let holeStart = previous.endMilliseconds, let holeEnd = next.startMilliseconds,
                  holeStart < to, holeEnd > from
            else { continue }
            let missing = (before.number + 1..<after.number).map { number in
                let digits = String(number)
                return series + "-" + String(repeating: "0", count: max(0, before.width - digits.count)) + digits + "." + before.fileExtension
            }
            let named = missing.prefix(3).joined(separator: ", ") + (missing.count > 3 ? " and \(missing.count - 3) more" : "")
            throw CamrecError(
                .noCamera,
                "\(named) \(missing.count == 1 ? "is" : "are") missing between \(previous.path) and \(next.path)"
                    + " (\(describe(holeStart)) to \(describe(holeEnd))): restore \(missing.count == 1 ? "it" : "them"),"
                    + " or export up to \(describe(holeStart)) and from \(describe(holeEnd)) apart; nothing was written"
            )
        }
    }

    /// The counter of a movie named `SERIES-NNNN.EXT` (four digits or more), with its width.
    static func counter(_ path: String, series: String) -> (number: Int, width: Int, fileExtension: String)? {
        let name = PathName.last(path)
        let plain = RecoverNaming.finalName(ofPartial: name) ?? name
        let (stem, ext) = OutputFile.split(plain)
        guard stem.hasPrefix(series + "-") else { return nil }
        let digits = stem.dropFirst(series.count + 1)
        guard digits.count >= 4, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(digits) else { return nil }
        return (number, digits.count, String(ext.dropFirst()))
    }

    /// Refuses unfinished and unreadable movies, naming each with what to do.
    private static func refuseUnfinished(_ movies: [LibraryFile]) throws(CamrecError) {
        var problems: [String] = []
        for movie in movies {
            switch movie.health {
            case .complete: continue
            case .unfinished:
                if let writer = movie.writer {
                    problems.append("\(movie.path) is still being recorded (process \(writer)): export up to its start, or once it is finished")
                } else {
                    problems.append("\(movie.path) is unfinished: run \(movie.recoverCommand ?? "camrec recover \(movie.path)") first")
                }
            case .unreadable(let reason):
                problems.append("\(movie.path) is unreadable (\(reason))")
            }
        }
        guard !problems.isEmpty else { return }
        throw CamrecError(.invalidInput, problems.joined(separator: "; ") + "; nothing was written")
    }
}

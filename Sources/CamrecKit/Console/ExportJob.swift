import FoundationEssentials
import MP4
#if canImport(Glibc)
import Glibc
#endif

/// One `camrec export`: finds the series, plans the outputs, cuts each (``Trimmer/runSeries(_:control:)``)
/// and says what it made (a line for people, or with `--json` an `export` line per output).
/// Stopped by SIGINT, SIGTERM or SIGHUP as a trim is: nothing is left behind.
public struct ExportJob: Sendable {
    public var request: ExportRequest

    /// `--on-file`: the command run for each movie written, once all are; nil: none.
    public var hooks: HookSettings?

    public init(request: ExportRequest) { self.request = request }

    /// An `export` line: one output.
    struct Line: Encodable {
        let path: String
        let series: String
        let from: String
        let to: String
        let start: String
        let end: String
        let duration: Double
        let frames: Int
        let framesCopied: Int
        let framesReencoded: Int
        let audioPackets: Int
        let bytes: Int64
        let movies: [String]
        let chapters: [ChapterLine]
        let gaps: [LibraryLines.GapLine]
        let splitReason: String?
        let reencodedJoins: [String]?
        let speed: Double?
        let interval: Double?
        let framesDecoded: Int?
        let keyframesOnly: Bool?
    }

    struct ChapterLine: Encodable {
        let start: Double
        let title: String
    }

    public func run(console: Console) throws(CamrecError) -> ExitStatus {
        let control = TrimControl(onProgress: TrimPrinter(console: console).progress(of: request.series, action: "exporting"))
        TrimmingJob.stopOnSignals(control, console: console, what: "export")
        let series = try findSeries()
        guard let start = series.startMilliseconds, var end = series.endMilliseconds else {
            throw CamrecError(.invalidInput, "\(series.name) has no movie whose time can be read: see camrec ls \(request.series)")
        }
        let utc = request.utc
        // A movie still being recorded cannot be read yet: the series ends, for an export,
        // where it begins (`--to` left out, `-5m` counted from there).
        for live in series.movies where live.writer != nil {
            if let liveStart = live.startMilliseconds, liveStart > start { end = min(end, liveStart) }
            if request.to == nil {
                let when = live.startMilliseconds.map { " (\(LibraryLines.time($0, utc: utc)))" } ?? ""
                Self.warn("\(live.path) is still being recorded: the export ends where it begins\(when)", console: console)
            }
        }
        let from = request.from?.resolve(start: start, end: end, utc: utc) ?? start
        let to = request.to?.resolve(start: start, end: end, notBefore: from, utc: utc) ?? end
        let describe: @Sendable (Int64) -> String = { milliseconds in LibraryLines.time(milliseconds, utc: utc) }
        guard from < to else {
            guard request.from != nil, request.to != nil else {
                throw CamrecError(.invalidInput, "no frame of \(series.name) was captured from \(describe(from)) to \(describe(to)) (it runs from \(describe(start)) to \(describe(end)))")
            }
            throw CamrecError(.usage, "--from \(describe(from)) is not before --to \(describe(to))")
        }
        var movies = MovieCache(temporaryStem: Self.temporaryStem(request.output))
        defer { movies.removeCopies() }
        let plan = try ExportPlan.make(
            series: series, from: from, to: to, splitAtGaps: request.splitAtGaps,
            countersAreSequential: !request.series.contains("%"), describe: describe
        ) { (before: LibraryFile, after: LibraryFile) throws(CamrecError) -> String? in
            MovieSeries.difference(try movies.movie(before), try movies.movie(after))
        }
        for warning in plan.warnings { Self.warn(warning, console: console) }
        let groups = request.reencode ? plan.reencodedGroups : plan.outputs.map { [$0] }
        let paths = request.outputPaths(count: groups.count)
        if !request.force, let existing = paths.first(where: { FileManager.default.fileExists(atPath: $0) }) {
            throw CamrecError(.cannotCreateOutput, "\(existing) already exists; use --force to replace it (nothing was written)")
        }
        var made: [String] = []
        var written: [HookedFile] = []
        for (group, path) in zip(groups, paths) {
            let result: SeriesTrimResult
            do throws(CamrecError) {
                if group.count == 1 {
                    result = try cut(group[0], from: from, to: to, into: path, movies: &movies, control: control, describe: describe)
                } else {
                    result = try join(group, from: from, to: to, into: path, movies: &movies, control: control, describe: describe)
                }
            } catch {
                // Nothing half done: the outputs this export made before are taken back.
                for path in made { _ = unlink(path) }
                throw error
            }
            made.append(path)
            for warning in result.trim.warnings { Self.warn(warning, console: console) }
            written.append(show(result, of: Self.merged(group), series: series, from: from, to: to, describe: describe, console: console))
        }
        // Once every movie is written (a failure takes back those made before).
        if let hooks { HookQueue.runOnce(hooks, for: written, console: console) }
        return .success
    }

    /// Cuts (or makes a time-lapse of) the frames of `output`'s movies captured in [from, to) into `path`.
    private func cut(
        _ output: ExportPlan.Output, from: Int64, to: Int64, into path: String, movies: inout MovieCache,
        control: TrimControl, describe: @escaping @Sendable (Int64) -> String
    ) throws(CamrecError) -> SeriesTrimResult {
        var cutMovies: [SeriesTrimRequest.Movie] = []
        for movie in output.movies {
            cutMovies.append(SeriesTrimRequest.Movie(
                path: try movies.mp4Path(movie), startMilliseconds: movie.startMilliseconds ?? 0,
                chapter: output.chapterStarts.contains(movie.path) ? describe(movie.startMilliseconds ?? 0) : nil
            ))
        }
        let cut = SeriesTrimRequest(movies: cutMovies, from: from, to: to, output: path, force: request.force, firstChapter: describe)
        guard let timelapse = request.timelapse else { return try Trimmer.runSeries(cut, control: control) }
        let frame = output.movies.compactMap(\.frameDuration).first ?? 1.0 / 30
        let step = timelapse.step(frameDuration: frame)
        guard step > Int64(frame * 1e9 * 1.001) else {
            throw CamrecError(.usage, "a time-lapse keeps one frame in several: --timelapse must be longer than a frame (\(String(cFormat: "%.3f", frame)) s here)")
        }
        return try Trimmer.runTimelapse(cut, step: step, control: control)
    }

    /// `--reencode`: cuts each output of `group` (movies that cannot be joined by copying)
    /// into a hidden file beside `path`, then joins them into `path` by encoding them
    /// again, with a chapter where each begins (and its own chapters). The parts are
    /// removed at the end.
    private func join(
        _ group: [ExportPlan.Output], from: Int64, to: Int64, into path: String, movies: inout MovieCache,
        control: TrimControl, describe: @escaping @Sendable (Int64) -> String
    ) throws(CamrecError) -> SeriesTrimResult {
        var parts: [(path: String, result: SeriesTrimResult)] = []
        defer { for part in parts { _ = unlink(part.path) } }
        let stem = Self.temporaryStem(path)
        for (index, output) in group.enumerated() {
            let part = "\(stem)-part-\(index + 1)\(OutputFile.split(path).1)"
            _ = unlink(part)
            let result = try cut(output, from: from, to: to, into: part, movies: &movies, control: control, describe: describe)
            parts.append((part, result))
        }
        var chapters: [(start: Double, title: String)] = []
        var offset = 0.0
        for part in parts {
            let own = part.result.chapters.isEmpty ? [(start: 0.0, title: describe(part.result.firstFrameMilliseconds))] : part.result.chapters
            chapters += own.map { (start: offset + $0.start, title: $0.title) }
            offset += part.result.trim.duration
        }
        let joined = try ReencodedJoin(parts: parts.map(\.path), output: path, force: request.force, chapters: chapters)
            .run(control: control)
        let first = parts[0].result
        let lapses = parts.compactMap(\.result.timelapse)
        var timelapse: SeriesTrimResult.Timelapse?
        if lapses.count == parts.count, let last = parts.last?.result, let lastLapse = last.timelapse {
            timelapse = SeriesTrimResult.Timelapse(
                framesDecoded: lapses.reduce(0) { $0 + $1.framesDecoded }, keyframesOnly: lapses.allSatisfy(\.keyframesOnly),
                capturedMilliseconds: last.firstFrameMilliseconds + lastLapse.capturedMilliseconds - first.firstFrameMilliseconds
            )
        }
        var trim = joined
        trim.warnings = parts.flatMap(\.result.trim.warnings)
        return SeriesTrimResult(trim: trim, firstFrameMilliseconds: first.firstFrameMilliseconds, chapters: chapters,
                                timelapse: timelapse)
    }

    /// The outputs of a `--reencode` group as one: all their movies, gaps and chapters.
    private static func merged(_ group: [ExportPlan.Output]) -> ExportPlan.Output {
        guard var output = group.first, group.count > 1 else { return group[0] }
        for part in group.dropFirst() {
            output.movies += part.movies
            output.gaps += (part.gapBefore.map { [$0] } ?? []) + part.gaps
            output.chapterStarts += [part.movies[0].path] + part.chapterStarts
        }
        output.joinedReasons = group.dropFirst().compactMap(\.splitReason)
        return output
    }

    private static func warn(_ warning: String, console: Console) {
        console.emit(WarningLine(message: warning), type: "warning")
        console.say("camrec: warning: \(warning)")
    }

    /// Where the export's temporary copies go: beside OUT, hidden, named for this process.
    private static func temporaryStem(_ output: String) -> String {
        let folder = Library.folder(of: output)
        let name = "." + PathName.last(output) + ".export-\(getpid())"
        return output.contains("/") ? folder + "/" + name : name
    }

    /// How many times faster than real time a time-lapse of `output` runs.
    private func speed(of output: ExportPlan.Output) -> Double? {
        guard let timelapse = request.timelapse else { return nil }
        switch timelapse {
        case .speed(let factor): return factor
        case .interval(let nanoseconds):
            let frame = output.movies.compactMap(\.frameDuration).first ?? 1.0 / 30
            return (Double(nanoseconds) / 1e9 / frame * 1000).rounded() / 1000
        }
    }

    /// The capture time between a time-lapse's frames, in seconds.
    private func interval(of output: ExportPlan.Output) -> Double? {
        guard let timelapse = request.timelapse else { return nil }
        let frame = output.movies.compactMap(\.frameDuration).first ?? 1.0 / 30
        return (Double(timelapse.step(frameDuration: frame)) / 1e6).rounded() / 1000
    }

    /// The one series with movies that `request.series` names.
    private func findSeries() throws(CamrecError) -> LibrarySeries {
        var library = Library(try LibraryScan.files([request.series]))
        // One of a series' movies stands for the whole series: its folder's files of that name.
        if library.series.count == 1, let named = library.series.first, named.movies.map(\.path) == [request.series] {
            let folder = Library(try LibraryScan.files([named.folder]))
            library = Library(folder.series.filter { $0.name == named.name }.flatMap { $0.movies + $0.clips + $0.stills })
        }
        let withMovies = library.series.filter { !$0.movies.isEmpty }
        guard let series = withMovies.first else {
            throw CamrecError(.noCamera, "\(request.series) names no movie to export: see camrec ls \(request.series)")
        }
        guard withMovies.count == 1 else {
            let names = withMovies.map(\.name).joined(separator: ", ")
            throw CamrecError(.usage, "\(request.series) names \(withMovies.count) series (\(names)): export one, e.g. camrec export \(withMovies[0].name).\(withMovies[0].movies[0].name.fileExtension)")
        }
        return series
    }

    private func show(
        _ result: SeriesTrimResult, of output: ExportPlan.Output, series: LibrarySeries, from: Int64, to: Int64,
        describe: (Int64) -> String, console: Console
    ) -> HookedFile {
        let trim = result.trim
        let first = LibraryLines.time(result.firstFrameMilliseconds, utc: request.utc)
        // A cut ends where its last frame does (past its gaps: where its last movie or the
        // range does); a time-lapse spans more capture time than it plays.
        var span = result.timelapse?.capturedMilliseconds ?? Int64((trim.duration * 1000).rounded())
        if result.timelapse == nil, !output.gaps.isEmpty, let end = output.movies.last?.endMilliseconds {
            span = min(to, end) - result.firstFrameMilliseconds
        }
        let last = LibraryLines.time(result.firstFrameMilliseconds + span, utc: request.utc)
        let line = Line(
            path: trim.output, series: series.name, from: describe(from), to: describe(to), start: first, end: last, duration: trim.duration,
            frames: trim.frames, framesCopied: trim.framesCopied, framesReencoded: trim.framesReencoded,
            audioPackets: trim.audioPackets, bytes: trim.bytes, movies: output.movies.map(\.path),
            chapters: result.chapters.map { ChapterLine(start: $0.start, title: $0.title) },
            gaps: output.gaps.map { LibraryLines.gap($0) }, splitReason: output.splitReason,
            reencodedJoins: output.joinedReasons.isEmpty ? nil : output.joinedReasons,
            speed: speed(of: output), interval: interval(of: output),
            framesDecoded: result.timelapse?.framesDecoded, keyframesOnly: result.timelapse?.keyframesOnly
        )
        let hooked = HookedFile(path: trim.output, kind: "export", start: result.firstFrameMilliseconds, duration: trim.duration,
                                frames: trim.frames, series: series.name, line: Console.jsonLine(line, type: "export") ?? "")
        if console.json {
            console.emit(line, type: "export")
        } else if let timelapse = result.timelapse {
            let how = timelapse.keyframesOnly ? "keyframes only" : "\(timelapse.framesDecoded) frames decoded"
            console.say(
                "camrec: time-lapse \(trim.output): \(first) on, x\(String(cFormat: "%g", speed(of: output) ?? 0)),"
                    + " \(trim.frames) frames, \(String(cFormat: "%.3f", trim.duration)) s (\(how))"
            )
        } else {
            let boundaries = output.movies.count - 1
            let gaps = output.gaps.isEmpty ? "" : ", \(output.gaps.count) gap\(output.gaps.count == 1 ? "" : "s") kept as chapters"
            console.say(
                "camrec: exported \(trim.output): \(first) to \(last), \(String(cFormat: "%.3f", trim.duration)) s, \(trim.frames) frames"
                    + " from \(output.movies.count) movie\(output.movies.count == 1 ? "" : "s") (\(boundaries) boundar\(boundaries == 1 ? "y" : "ies")\(gaps));"
                    + (output.joinedReasons.isEmpty ? " \(trim.framesReencoded) re-encoded at the edges"
                        : " all re-encoded to join \(output.joinedReasons.count + 1) parts of other sizes or codecs")
            )
        }
        return hooked
    }
}

/// The movies read so far (each movie box is read once), and the MP4 copies of Matroska
/// movies (``MatroskaRemux``), made once each and removed when the export ends.
private struct MovieCache {
    let temporaryStem: String
    private var movies: [String: Movie] = [:]
    private var copies: [String: String] = [:]

    init(temporaryStem: String) { self.temporaryStem = temporaryStem }

    /// The MP4 the export reads for `file`: the file itself, or a copy of a Matroska movie.
    mutating func mp4Path(_ file: LibraryFile) throws(CamrecError) -> String {
        guard file.format == "mkv" || file.format == "webm" else { return file.path }
        if let copy = copies[file.path] { return copy }
        let copy = "\(temporaryStem)-\(copies.count + 1).mp4"
        copies[file.path] = copy
        try MatroskaRemux.toMP4(file.path, sound: file.soundCodec, output: copy)
        return copy
    }

    mutating func movie(_ file: LibraryFile) throws(CamrecError) -> Movie {
        let path = try mp4Path(file)
        if let movie = movies[path] { return movie }
        do {
            let movie = try Movie.read(path: path)
            movies[path] = movie
            return movie
        } catch {
            throw CamrecError(.invalidInput, "cannot read \(file.path): \(error.message)")
        }
    }

    /// Removes the copies.
    func removeCopies() {
        for copy in copies.values { _ = unlink(copy) }
    }
}

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
        let paths = request.outputPaths(count: plan.outputs.count)
        if !request.force, let existing = paths.first(where: { FileManager.default.fileExists(atPath: $0) }) {
            throw CamrecError(.cannotCreateOutput, "\(existing) already exists; use --force to replace it (nothing was written)")
        }
        var made: [String] = []
        for (output, path) in zip(plan.outputs, paths) {
            var cutMovies: [SeriesTrimRequest.Movie] = []
            for movie in output.movies {
                cutMovies.append(SeriesTrimRequest.Movie(
                    path: try movies.mp4Path(movie), startMilliseconds: movie.startMilliseconds ?? 0,
                    chapter: output.chapterStarts.contains(movie.path) ? describe(movie.startMilliseconds ?? 0) : nil
                ))
            }
            let cut = SeriesTrimRequest(
                movies: cutMovies, from: from, to: to, output: path, force: request.force, firstChapter: describe
            )
            let result: SeriesTrimResult
            do throws(CamrecError) {
                if let timelapse = request.timelapse {
                    let frame = output.movies.compactMap(\.frameDuration).first ?? 1.0 / 30
                    let step = timelapse.step(frameDuration: frame)
                    guard step > Int64(frame * 1e9 * 1.001) else {
                        throw CamrecError(.usage, "a time-lapse keeps one frame in several: --timelapse must be longer than a frame (\(String(cFormat: "%.3f", frame)) s here)")
                    }
                    result = try Trimmer.runTimelapse(cut, step: step, control: control)
                } else {
                    result = try Trimmer.runSeries(cut, control: control)
                }
            } catch {
                // Nothing half done: the outputs this export made before are taken back.
                for path in made { _ = unlink(path) }
                throw error
            }
            made.append(path)
            for warning in result.trim.warnings { Self.warn(warning, console: console) }
            show(result, of: output, series: series, from: describe(from), to: describe(to), console: console)
        }
        return .success
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
        _ result: SeriesTrimResult, of output: ExportPlan.Output, series: LibrarySeries, from: String, to: String,
        console: Console
    ) {
        let trim = result.trim
        let first = LibraryLines.time(result.firstFrameMilliseconds, utc: request.utc)
        // A cut ends where its last frame does; a time-lapse spans more capture time than it plays.
        let span = result.timelapse?.capturedMilliseconds ?? Int64((trim.duration * 1000).rounded())
        let last = LibraryLines.time(result.firstFrameMilliseconds + span, utc: request.utc)
        if console.json {
            console.emit(Line(
                path: trim.output, series: series.name, from: from, to: to, start: first, end: last, duration: trim.duration,
                frames: trim.frames, framesCopied: trim.framesCopied, framesReencoded: trim.framesReencoded,
                audioPackets: trim.audioPackets, bytes: trim.bytes, movies: output.movies.map(\.path),
                chapters: result.chapters.map { ChapterLine(start: $0.start, title: $0.title) },
                gaps: output.gaps.map { LibraryLines.gap($0) }, splitReason: output.splitReason,
                speed: speed(of: output), interval: interval(of: output),
                framesDecoded: result.timelapse?.framesDecoded, keyframesOnly: result.timelapse?.keyframesOnly
            ), type: "export")
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
                    + " \(trim.framesReencoded) re-encoded at the edges"
            )
        }
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

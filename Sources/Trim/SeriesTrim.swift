import CamrecCore
import FoundationEssentials
import MP4
import MediaValues

/// A cut across movies that follow each other (a recording's segments, and the runs after
/// it): the movies, each with the wall-clock time of its first frame, and the instants to
/// cut at. What `camrec export` asks of the trim: the movies are read as one (``MovieSeries``)
/// and cut as one movie, frame-exactly, the edges re-encoded as `camrec trim` does.
public struct SeriesTrimRequest: Sendable, Equatable {
    /// One movie of the cut.
    public struct Movie: Sendable, Equatable {
        /// Its path.
        public var path: String
        /// When its first frame was captured, in milliseconds since 1970.
        public var startMilliseconds: Int64
        /// The chapter that begins with its first frame in the output (the movies after a
        /// gap), or nil.
        public var chapter: String?

        /// Creates a movie of the cut.
        public init(path: String, startMilliseconds: Int64, chapter: String? = nil) {
            self.path = path
            self.startMilliseconds = startMilliseconds
            self.chapter = chapter
        }
    }

    /// The movies, in time order (MP4 or MOV, all alike: see ``MovieSeries/difference(_:_:)``).
    public var movies: [Movie]
    /// The first instant kept, in milliseconds since 1970 (its frames' capture times).
    public var from: Int64
    /// The end of the cut (exclusive), in milliseconds since 1970.
    public var to: Int64
    /// The output's path.
    public var output: String
    /// Whether an existing output may be replaced.
    public var force: Bool
    /// The title of the output's first chapter (the time of its first frame), given the
    /// capture time of that frame in milliseconds since 1970; chapters are written only when
    /// a movie of the cut has a ``Movie/chapter``.
    public var firstChapter: @Sendable (Int64) -> String

    /// Creates a request.
    public init(
        movies: [Movie], from: Int64, to: Int64, output: String, force: Bool,
        firstChapter: @escaping @Sendable (Int64) -> String
    ) {
        self.movies = movies
        self.from = from
        self.to = to
        self.output = output
        self.force = force
        self.firstChapter = firstChapter
    }

    public static func == (lhs: SeriesTrimRequest, rhs: SeriesTrimRequest) -> Bool {
        lhs.movies == rhs.movies && lhs.from == rhs.from && lhs.to == rhs.to && lhs.output == rhs.output
            && lhs.force == rhs.force
    }
}

/// What a series cut made: the trim's result, and when its first frame was captured.
public struct SeriesTrimResult: Sendable, Equatable {
    /// The output, as a trim describes it (times on the output's own timeline).
    public var trim: TrimResult
    /// When the output's first frame was captured, in milliseconds since 1970.
    public var firstFrameMilliseconds: Int64
    /// The chapters written (none without a gap): start in seconds, title.
    public var chapters: [(start: Double, title: String)]
    /// A time-lapse's decoding (nil for a cut).
    public var timelapse: Timelapse?

    /// How a time-lapse was made.
    public struct Timelapse: Sendable, Equatable {
        /// Frames decoded to make it (only keyframes when ``keyframesOnly``).
        public var framesDecoded: Int
        /// Whether the keyframe nearest each instant stood for it.
        public var keyframesOnly: Bool
        /// Capture time from its first frame to the end of its last, in milliseconds.
        public var capturedMilliseconds: Int64

        public init(framesDecoded: Int, keyframesOnly: Bool, capturedMilliseconds: Int64) {
            self.framesDecoded = framesDecoded
            self.keyframesOnly = keyframesOnly
            self.capturedMilliseconds = capturedMilliseconds
        }
    }

    /// A result: `trim`'s, with its first frame's capture time and its chapters.
    public init(trim: TrimResult, firstFrameMilliseconds: Int64, chapters: [(start: Double, title: String)], timelapse: Timelapse? = nil) {
        self.trim = trim
        self.firstFrameMilliseconds = firstFrameMilliseconds
        self.chapters = chapters
        self.timelapse = timelapse
    }

    public static func == (lhs: SeriesTrimResult, rhs: SeriesTrimResult) -> Bool {
        lhs.trim == rhs.trim && lhs.firstFrameMilliseconds == rhs.firstFrameMilliseconds
            && lhs.chapters.map(\.start) == rhs.chapters.map(\.start) && lhs.chapters.map(\.title) == rhs.chapters.map(\.title)
            && lhs.timelapse == rhs.timelapse
    }
}

extension Trimmer {
    /// Cuts `request`'s movies as one: the output holds exactly the frames captured in
    /// [from, to), stream-copied but for the edges. Blocks the calling thread.
    ///
    /// - Throws: ``CamrecError``: invalid input (exit 65) for movies that are not plain MP4 or
    ///   MOV or do not join, a range that holds no frame; nothing is left behind.
    public static func runSeries(
        _ request: SeriesTrimRequest, control: TrimControl = TrimControl()
    ) throws(CamrecError) -> SeriesTrimResult {
        guard let first = request.movies.first else { throw .invalidInput("no movie holds frames of that range") }
        let name = PathName.last(first.path)
        do {
            return try trimSeries(request, name: name, control: control)
        } catch where error.kind == .stalled {
            throw CamrecError(.stalled, "exporting from \(name) failed: \(error.message); nothing was written")
        }
    }

    private static func trimSeries(
        _ series: SeriesTrimRequest, name: String, control: TrimControl
    ) throws(CamrecError) -> SeriesTrimResult {
        let joined = try JoinedSeries.open(series, name: name, control: control)
        let (paths, container, input, starts) = (joined.paths, joined.container, joined.input, joined.starts)
        let offset = input.index.presentationOffset
        let firstFrame = joined.firstFrame
        func joinedTime(_ milliseconds: Int64) -> Int64 { firstFrame + joined.position(of: milliseconds) }
        let request = TrimRequest(
            input: paths[0], start: TimeSpec(nanoseconds: joinedTime(series.from)),
            // A range that runs on past these movies (the next ones are cut apart) ends with
            // them, without the trim's "past the end" note.
            end: TimeSpec(nanoseconds: min(joinedTime(series.to), input.index.videoEnd)), mode: .accurate,
            destination: .path(series.output),
            force: series.force
        )
        try request.validate()
        let output = try TrimOutput.prepare(for: request, inputContainer: container)
        guard output.container == .mp4 || output.container == .mov else {
            throw CamrecError(.usage, "camrec export writes MP4 or MOV (as its input): end -o with .mp4 or .mov")
        }
        control.track(temporaryPath: output.temporaryPath)
        try control.checkCancelled()
        let times = try CutTimes.resolve(request, length: input.index.videoEnd, name: name)
        var cut = try PlannedCut.make(index: input.index, times: times, mode: .accurate, name: name)
        try output.checkWritable()
        do {
            var writer = input.writer(for: job(cut, output: output, control: control))
            var written: WrittenMovie
            do {
                written = try writer.write()
            } catch let refusal as VideoEncoding.Unavailable {
                cut = try cut.fallingBackToKeyframes(index: input.index, times: times, because: refusal.reason)
                writer = input.writer(for: job(cut, output: output, control: control))
                written = try writer.write()
            }
            // Where the output's first frame was captured: in the movie it comes from.
            let firstPTS = cut.plan.firstPTS - offset - firstFrame
            let (firstMilliseconds, source) = joined.captureTime(at: firstPTS)
            let chapters = chapterList(series, starts: starts, from: firstPTS, end: cut.plan.endPTS - offset - firstFrame,
                                       firstMilliseconds: firstMilliseconds)
            if !chapters.isEmpty, try !NeroChapterList.add(chapters, to: output.temporaryPath) {
                throw CamrecError.failed("cannot add the chapters to the exported movie")
            }
            try check(writer, wrote: cut, of: input.index, to: output, control: control)
            try? JoinedSeries.stamp(of: paths[source], movieStart: series.movies[source].startMilliseconds,
                                    first: firstMilliseconds).write(into: output.temporaryPath)
            try control.checkCancelled()
            for path in paths { try refuseIfBeingWritten(path) }
            try output.commit(keepingModeOf: nil, control: control)
            var made = result(of: cut, from: input, to: output, request: request, written: written)
            made.warnings = times.notes + made.warnings
            // Times on the output's own timeline: its first frame at 0.
            made.lastFrameTime = seconds(cut.plan.lastPTS - cut.plan.firstPTS)
            made.firstFrameTime = 0
            return SeriesTrimResult(
                trim: made, firstFrameMilliseconds: firstMilliseconds,
                chapters: chapters.chapters.map { (seconds($0.start), $0.title) }
            )
        } catch {
            output.discard()
            throw failure(error, trimming: name, to: output, control: control)
        }
    }

    /// The chapters of an output cut from `from` to `end` (ns on the joined timeline, first
    /// frame at 0): none without a movie that begins a chapter inside it; otherwise one at 0
    /// and one where each such movie begins.
    private static func chapterList(
        _ series: SeriesTrimRequest, starts: [Int64], from: Int64, end: Int64, firstMilliseconds: Int64
    ) -> ChapterList {
        var chapters: [Chapter] = []
        for (movie, start) in zip(series.movies, starts) {
            guard let title = movie.chapter, start > from, start < end else { continue }
            chapters.append(Chapter(start: start - from, end: nil, title: title))
        }
        guard !chapters.isEmpty else { return ChapterList([]) }
        return ChapterList([Chapter(start: 0, end: nil, title: series.firstChapter(firstMilliseconds))] + chapters)
    }

}

/// A series' movies read as one MP4 input (``MovieSeries``), and where each begins on the
/// joined timeline.
struct JoinedSeries {
    let paths: [String]
    let container: MediaContainer
    let input: MP4Input
    /// Where each movie begins on the joined timeline (ns from the first frame).
    let starts: [Int64]
    /// The joined video's length (ns).
    let length: Int64
    /// The first frame's time on the input's presentation timeline.
    let firstFrame: Int64
    /// Each movie's first frame's capture time (ms since 1970).
    let captureStarts: [Int64]

    /// Reads `series`' movies and joins them.
    static func open(_ series: SeriesTrimRequest, name: String, control: TrimControl) throws(CamrecError) -> JoinedSeries {
        let paths = series.movies.map(\.path)
        let container = try MediaContainer.identify(path: paths[0])
        guard container == .mp4 || container == .mov else {
            throw .invalidInput("\(name) is not an MP4 or MOV movie: camrec export reads MP4 and MOV series")
        }
        var movies: [MP4.Movie] = []
        for path in paths {
            try Trimmer.refuseIfBeingWritten(path)
            do {
                movies.append(try MP4.Movie.read(path: path))
            } catch {
                throw .invalidInput("cannot read \(path): \(error.message) (an unfinished movie? try camrec recover \(path))")
            }
        }
        let file: SampleFile
        let joined: (movie: MP4.Movie, starts: [Int64], length: Int64)
        do {
            file = try SampleFile(concatenating: paths)
            joined = try MovieSeries.joining(movies, file: file)
        } catch {
            throw .invalidInput("cannot join \(paths.joined(separator: ", ")): \(error.message)")
        }
        guard let input = MP4Input.make(path: paths[0], movie: joined.movie, file: file, container: container, control: control) else {
            throw .invalidInput("cannot read the video of \(paths.joined(separator: ", ")) as one movie")
        }
        let firstFrame = (input.index.video.map(\.pts).min() ?? 0) - input.index.presentationOffset
        return JoinedSeries(
            paths: paths, container: container, input: input, starts: joined.starts, length: joined.length, firstFrame: firstFrame,
            captureStarts: series.movies.map(\.startMilliseconds)
        )
    }

    /// Where the instant `milliseconds` (since 1970) is on the joined timeline (ns from its
    /// first frame): in the last movie that starts at or before it, clamped to that movie.
    func position(of milliseconds: Int64) -> Int64 {
        let index = captureStarts.lastIndex { $0 <= milliseconds } ?? 0
        let within = (milliseconds - captureStarts[index]) * 1_000_000
        let end = index + 1 < starts.count ? starts[index + 1] : length
        return starts[index] + min(max(within, 0), end - starts[index])
    }

    /// The capture time (ms since 1970) of the instant `position` ns from the first frame,
    /// and the movie it is in.
    func captureTime(at position: Int64) -> (milliseconds: Int64, movie: Int) {
        let movie = starts.lastIndex { $0 <= position } ?? 0
        return (captureStarts[movie] + (position - starts[movie]) / 1_000_000, movie)
    }

    /// The capture time stamp of an output whose first frame was captured at `first` (ms
    /// since 1970), from the movie at `path` it comes from (its camera, place and zone) when
    /// that holds one, else in UTC (a Matroska movie's copy: its `DateUTC` has no zone).
    static func stamp(of path: String, movieStart: Int64, first: Int64) -> CaptureTimeStamp {
        CaptureTimeStamp.read(path: path)?.adding(milliseconds: first - movieStart)
            ?? CaptureTimeStamp(unixMilliseconds: first, utcOffsetSeconds: 0)
    }
}

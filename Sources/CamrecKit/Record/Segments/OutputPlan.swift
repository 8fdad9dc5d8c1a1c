import FoundationEssentials
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The movies a recording run makes, and what each holds when it is done.
///
/// A run makes one movie at OUTPUT, or with `--segment` a sequence of them named by the
/// run's `SegmentNaming`. The plan claims each movie's temporary file (`NAME.partial.EXT`,
/// with O_EXCL: a stale one is never clobbered) and keeps it open (``HeldFile``), so that
/// the pipeline writes the very file claimed, whatever happens to its name; it commits it
/// under its final name once the muxer has finalised it, measures what an unfinalised one
/// holds, and applies retention. It outlives a pipeline: after a reconnect the next
/// pipeline's movies continue the same sequence. Shared between the streaming thread
/// (which asks for each new file) and the bus thread (which commits them).
final class OutputPlan: Sendable {
    /// One movie of the run.
    struct Movie {
        var file: OutputFile
        /// The claimed file, open until the movie is committed or discarded; nil after.
        var held: HeldFile?
        /// 1-based number of the movie in the run.
        var number: Int
        /// Wall-clock time its first frame was about to be written.
        var started: Date
        var committed = false

        /// What the pipeline opens for it: the held file, or its name once it is closed.
        var sinkPath: String { held?.path ?? file.partialPath }
    }

    private struct State {
        var movies: [Movie] = []
        /// The counter the next segment's name gets.
        var nextCounter: Int
        /// What the pipeline opens for movies it has not opened yet, oldest first (see
        /// ``HeldFile/path``): the first movie's (claimed before the pipeline runs), then one per cut.
        var reserved: [String] = []
        /// Why the last claim failed.
        var claimFailure: String?
        /// Bytes of the committed movies.
        var committedBytes: Int64 = 0

        /// Movie `index` is done with (committed, kept, lost or discarded): its file is closed.
        mutating func settle(_ index: Int) {
            movies[index].committed = true
            movies[index].held = nil
        }
    }

    private let state: Mutex<State>
    private let container: MediaContainer
    private let frameDuration: Double
    private let overwrite: Bool
    /// The segment names; nil for a single movie at `outputPath`.
    let segments: SegmentSettings?
    private let outputPath: String
    /// The camera's name and place, written into each finished MP4/MOV with its capture time.
    private let tags: StillTags

    /// Claims the first movie's temporary file (so that a bad OUTPUT fails before the
    /// camera opens). With segments, the counter continues after the highest one in the
    /// folder, so a restarted service never reuses a name.
    init(config: RecordConfig, now: Date = Date()) throws(CamrecError) {
        container = config.container
        frameDuration = 1 / max(config.rate.framesPerSecond, 1)
        overwrite = config.overwrite
        segments = config.segments
        outputPath = config.outputPath
        tags = config.stills.tags
        var first = 1
        if let naming = config.segments?.naming, naming.hasCounter,
           let names = try? FileManager.default.contentsOfDirectory(atPath: naming.folder) {
            let highest = names.compactMap { naming.match(Self.withoutPartial($0)) }.max() ?? 0
            first = highest + 1
        }
        state = Mutex(State(nextCounter: first))
        let reserved = try claim(at: now)
        state.withLock { $0.reserved = [reserved.sinkPath]; $0.movies.append(reserved) }
    }

    /// A `.partial` name as the final name it stands for (for finding the highest counter).
    private static func withoutPartial(_ name: String) -> String {
        guard let range = name.firstRange(of: ".partial") else { return name }
        var rest = name[range.upperBound...]
        if rest.hasPrefix("-") { rest = rest.drop(while: { $0 != "." }) }
        return String(name[..<range.lowerBound]) + rest
    }

    /// Claims the next movie's temporary file; the name's counter and time are taken now.
    private func claim(at date: Date) throws(CamrecError) -> Movie {
        let number = state.withLock { $0.movies.count + 1 }
        guard let naming = segments?.naming else {
            let (file, held) = try OutputFile.claimOpen(outputPath, overwrite: overwrite)
            return Movie(file: file, held: held, number: number, started: date)
        }
        let counter = state.withLock { state -> Int in
            defer { state.nextCounter += 1 }
            return state.nextCounter
        }
        // A name that exists (an earlier run, a clock stepped back) gets "-2", "-3", …
        for collision in 1...1000 {
            let path = naming.path(counter: counter, date: date, collision: collision)
            var info = stat()
            if lstat(path, &info) == 0 { continue }
            let (file, held) = try OutputFile.claimOpen(path, overwrite: false)
            return Movie(file: file, held: held, number: number, started: date)
        }
        throw CamrecError(.cannotCreateOutput, "cannot find a free name for segment \(counter) beside \(outputPath)")
    }

    /// A frame that starts a new movie passed the gate: claims that movie's file now, named
    /// after this moment (splitmuxsink asks for the name a GOP later, and a still of the
    /// frame names its movie before that). Runs on the recording branch's streaming
    /// thread, behind a queue of two seconds: a slow `open` costs no frame.
    func movieStarts(at date: Date = Date()) {
        do {
            let movie = try claim(at: date)
            state.withLock { state in
                state.movies.append(movie)
                state.reserved.append(movie.sinkPath)
            }
        } catch {
            // The folder became unusable: splitmuxsink gets a name it cannot open (below),
            // and the run stops with that error.
            state.withLock { $0.claimFailure = error.message }
        }
    }

    /// The temporary file for the pipeline's next movie file (splitmuxsink's
    /// `format-location-full`, on the streaming thread): the oldest claimed and not yet
    /// opened. When none could be claimed, a path in a folder that does not exist, so
    /// that the sink fails to open it and the run stops with an error.
    func nextLocation() -> String {
        state.withLock { state in
            state.reserved.isEmpty ? "/nonexistent/camrec: " + (state.claimFailure ?? "no file was claimed") : state.reserved.removeFirst()
        }
    }

    /// Why the last claim of a movie's file failed (the folder went away, filled up, or
    /// became read-only); nil while every claim succeeded.
    var claimFailure: String? { state.withLock { $0.claimFailure } }

    /// The final path of movie `index` (0-based, in the run), nil when there is none.
    func finalPath(ofMovie index: Int) -> String? {
        state.withLock { $0.movies.indices.contains(index) ? $0.movies[index].file.finalPath : nil }
    }

    /// How many movies this run has opened so far.
    var movieCount: Int { state.withLock { $0.movies.count } }

    /// The movie being written (the newest), by its final path.
    var currentPath: String { state.withLock { $0.movies.last?.file.finalPath ?? outputPath } }

    /// Where the pipeline writes now: the newest movie's temporary file.
    var location: String { state.withLock { $0.movies.last?.file.partialPath ?? outputPath } }

    /// What the pipeline's file sink opens for the newest movie: its claimed file (``HeldFile/path``).
    var sinkLocation: String { state.withLock { $0.movies.last?.sinkPath ?? outputPath } }

    /// `text` (a sink's error message) with each open movie's ``HeldFile/path`` replaced by
    /// its temporary file's name, which a person can find.
    func readable(_ text: String) -> String {
        let names = state.withLock { state in
            state.movies.compactMap { movie in movie.held.map { ($0.path, movie.file.partialPath) } }
        }
        // Longest first: /proc/self/fd/12 before /proc/self/fd/1.
        return names.sorted { $0.0.count > $1.0.count }.reduce(text) { text, name in
            name.0 == name.1 ? text : text.replacing(name.0, with: name.1)
        }
    }

    /// The bytes written so far, in all movies.
    var bytesWritten: Int64 {
        let (committed, open) = state.withLock { state in
            (state.committedBytes, state.movies.filter { !$0.committed }.map(\.file))
        }
        return open.reduce(committed) { $0 + $1.partialSize }
    }

    /// The index (0-based, in the run) of the open movie the sink wrote at `location` (its
    /// ``HeldFile/path`` or its temporary file's name).
    func openMovie(at location: String) -> Int? {
        state.withLock { state in
            state.movies.firstIndex { !$0.committed && ($0.sinkPath == location || $0.file.partialPath == location) }
        }
    }

    /// The temporary files of the movies being written.
    var openPartialPaths: [String] {
        state.withLock { state in state.movies.filter { !$0.committed }.map(\.file.partialPath) }
    }

    /// Indexes (0-based, in the run) of the movies not committed yet, oldest first.
    var openMovies: [Int] {
        state.withLock { state in state.movies.indices.filter { !state.movies[$0].committed } }
    }

    /// The muxer finalised movie `index`: commits it under its final name. When it cannot
    /// have that name (taken meanwhile by an overlapping run, refused by the file system),
    /// it stays under its temporary name, is never removed, and `note` says where it is.
    func commitFinalised(_ index: Int, frames: Int, seconds: Double, captured: WallTime? = nil) throws(CamrecError) -> (file: ResultFile, note: String?) {
        guard let movie = state.withLock({ $0.movies.indices.contains(index) ? $0.movies[index] : nil }) else {
            throw CamrecError(.failure, "no movie \(index + 1) in this run")
        }
        // Its file removed or replaced under it: lost, said as such (never "kept").
        if let lost = movie.file.whatHappened() {
            state.withLock { $0.settle(index) }
            throw CamrecError(.cannotCreateOutput, lost)
        }
        if let captured { MovieCapture.stamp(movie.file.partialPath, container: container, time: captured, tags: tags) }
        let note = publish(movie)
        let path = note == nil ? movie.file.finalPath : movie.file.partialPath
        let bytes = OutputFile.size(of: path)
        state.withLock { state in
            state.settle(index)
            state.committedBytes += bytes
        }
        var file = describe(movie, path: path, frames: frames, seconds: seconds, bytes: bytes)
        if let captured { file.start = captured.iso8601(utc: segments?.naming.utc ?? false) }
        if note != nil { file.unpublished = movie.file.finalPath }
        return (file, note)
    }

    /// Gives the movie its final name; nil, or why it stays under its temporary name.
    private func publish(_ movie: Movie) -> String? {
        do {
            try movie.file.commit()
            return nil
        } catch {
            return error.message
        }
    }

    private func describe(_ movie: Movie, path: String, frames: Int, seconds: Double, bytes: Int64) -> ResultFile {
        var file = ResultFile(path: path, kind: "movie", duration: seconds, frames: frames, bytes: bytes)
        if let naming = segments?.naming {
            file.index = movie.number
            file.start = SegmentNaming.iso8601(movie.started, utc: naming.utc)
        }
        return file
    }

    /// Movie `index` could not be finalised (an abort, a full disk, a wedged muxer):
    /// keeps what plays of it, measured from the file, with a torn tail cut off, under its
    /// final name when it can be moved there (and `publish`: an aborted movie stays under
    /// its temporary name, for `camrec recover`). Returns nil (and removes the file) when
    /// nothing of it plays; `note` is set when the file had to stay under its temporary name.
    func keepUnfinalised(_ index: Int, publish: Bool = true) -> (file: ResultFile, note: String?)? {
        guard let movie = state.withLock({ $0.movies.indices.contains(index) ? $0.movies[index] : nil }),
              !movie.committed else { return nil }
        // A file that took its name meanwhile is never measured, cut or moved.
        if movie.file.whatHappened() != nil {
            state.withLock { $0.settle(index) }
            return nil
        }
        guard let measured = UnfinalisedMovie.measure(path: movie.file.partialPath, container: container,
                                                      frameDuration: frameDuration),
              measured.frames > 0 else {
            discard(index)
            return nil
        }
        measured.cutTornTail(of: movie.file.partialPath)
        // An aborted movie is not finished: it keeps its temporary name (nothing to note).
        let note = publish ? self.publish(movie) : nil
        let path = publish && note == nil ? movie.file.finalPath : movie.file.partialPath
        let bytes = OutputFile.size(of: path)
        state.withLock { state in
            state.settle(index)
            state.committedBytes += bytes
        }
        var file = describe(movie, path: path, frames: measured.frames, seconds: measured.seconds, bytes: bytes)
        if note != nil || !publish { file.unpublished = movie.file.finalPath }
        return (file, note)
    }

    /// Removes movie `index`'s temporary file: nothing worth keeping was recorded in it.
    func discard(_ index: Int) {
        let file = state.withLock { state -> OutputFile? in
            guard state.movies.indices.contains(index), !state.movies[index].committed else { return nil }
            state.settle(index)
            return state.movies[index].file
        }
        file?.discard()
    }

    /// Removes every open movie's temporary file, and the reserved one if the pipeline never
    /// opened it.
    func discardOpen() {
        for index in openMovies { discard(index) }
    }

    /// Reserves the next movie for a new pipeline (after a reconnect): claimed now, so a
    /// folder that became unusable fails here rather than in the streaming thread.
    func reserveNext(at date: Date = Date()) throws(CamrecError) {
        let movie = try claim(at: date)
        state.withLock { $0.reserved = [movie.sinkPath]; $0.movies.append(movie) }
    }

    /// Deletes what retention says must go (after a movie is committed, and now and then
    /// for `--min-free`); `stillShort` when free space stays below `--min-free`. Once the
    /// run is `stopping`, nothing is deleted to make room for a movie that will not be
    /// written (see ``RetentionKeeper/apply(freeSpaceOnly:stopping:)``).
    func applyRetention(freeSpaceOnly: Bool = false, stopping: Bool = false)
        -> (deleted: [DeletedFile], stillShort: Bool, waiting: [String]) {
        guard let segments, segments.retention.isActive else { return ([], false, []) }
        return RetentionKeeper(policy: segments.retention, naming: segments.naming)
            .apply(freeSpaceOnly: freeSpaceOnly, stopping: stopping)
    }
}

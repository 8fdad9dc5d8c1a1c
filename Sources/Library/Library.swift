/// The files of a recordings folder grouped as `camrec ls` shows them: one series per
/// movie name (a run's segments, and the same camera's runs after it: `cam-0001.mp4`, …;
/// several cameras: `lab-1-0001.mp4` and `lab-2-0001.mp4` are two series), each with its
/// clips, stills and Live Photos, and the gaps where its time does not run on; and the
/// foreign files. A value made from ``LibraryFile``s only: tested without files.
public struct Library: Sendable, Equatable {
    /// The series, by folder and name.
    public var series: [LibrarySeries]
    /// Files that are neither movies nor stills.
    public var foreign: [LibraryFile]

    /// Groups `files` (in any order).
    public init(_ files: [LibraryFile]) {
        var groups: [String: LibrarySeries] = [:]
        var foreign: [LibraryFile] = []
        for file in files {
            guard file.kind != .foreign else {
                foreign.append(file)
                continue
            }
            let folder = Self.folder(of: file.path)
            let key = folder + "/" + file.name.series
            // Appended in place: a copy of the series per file would make this quadratic.
            let empty = LibrarySeries(name: file.name.series, folder: folder)
            switch file.kind {
            case .movie: groups[key, default: empty].movies.append(file)
            case .clip: groups[key, default: empty].clips.append(file)
            case .still: groups[key, default: empty].stills.append(file)
            case .foreign: break
            }
        }
        series = groups.keys.sorted().compactMap { groups[$0] }.map { $0.ordered() }
        self.foreign = foreign.sorted { $0.path < $1.path }
    }

    /// The folder part of a path ("." for a bare name).
    package static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}

/// One series: a movie name's movies (one run's segments, and later runs'), clips and
/// stills, in time order.
public struct LibrarySeries: Sendable, Equatable {
    /// The series' name: the movie name without counter, time fields and extension.
    public var name: String
    /// The folder its files are in.
    public var folder: String
    /// Its movies (segments), in time order.
    public var movies: [LibraryFile] = []
    /// Its event clips, in time order.
    public var clips: [LibraryFile] = []
    /// Its stills, in time order.
    public var stills: [LibraryFile] = []
    /// Clips with the still of their trigger's frame: a still whose time falls within the clip.
    public var livePhotos: [LivePhoto] = []
    /// Where consecutive movies do not follow each other: gaps and overlaps.
    public var gaps: [SeriesGap] = []

    /// A Live Photo: a clip and its still.
    public struct LivePhoto: Sendable, Equatable {
        /// The clip's path.
        public var clip: String
        /// The still's path.
        public var still: String
    }

    /// The runs: stretches of movies without a gap between them (1 with no gap).
    public var runs: Int { movies.isEmpty ? 0 : gaps.count + 1 }

    /// The first movie's start and the last one's end, in milliseconds since 1970.
    public var startMilliseconds: Int64? { movies.compactMap(\.startMilliseconds).min() }
    /// The last movie's end, in milliseconds since 1970.
    public var endMilliseconds: Int64? { movies.compactMap(\.endMilliseconds).max() }

    /// Seconds of video in all its movies.
    public var duration: Double { (movies.compactMap(\.duration).reduce(0, +) * 1000).rounded() / 1000 }

    /// Frames in all its movies (some may be estimated: Matroska).
    public var frames: Int { movies.compactMap(\.frames).reduce(0, +) }

    /// Bytes of all its files.
    public var bytes: Int64 { (movies + clips + stills).map(\.bytes).reduce(0, +) }

    /// The series sorted by time, with its gaps and Live Photos found.
    func ordered() -> LibrarySeries {
        var series = self
        series.movies.sort(by: Self.earlier)
        series.clips.sort(by: Self.earlier)
        series.stills.sort(by: Self.earlier)
        series.gaps = SeriesGap.find(in: series.movies)
        series.livePhotos = Self.pair(clips: series.clips, stills: series.stills)
        return series
    }

    /// By start time (unknown last), then by path.
    private static func earlier(_ a: LibraryFile, _ b: LibraryFile) -> Bool {
        let (left, right) = (a.startMilliseconds ?? .max, b.startMilliseconds ?? .max)
        return left != right ? left < right : a.path < b.path
    }

    /// Each clip with the first still, not yet paired, whose time lies within it.
    private static func pair(clips: [LibraryFile], stills: [LibraryFile]) -> [LivePhoto] {
        var taken = Set<String>()
        var pairs: [LivePhoto] = []
        for clip in clips {
            guard let start = clip.startMilliseconds, let end = clip.endMilliseconds else { continue }
            if let still = stills.first(where: { still in
                guard let time = still.startMilliseconds, !taken.contains(still.path) else { return false }
                return time >= start && time <= end
            }) {
                taken.insert(still.path)
                pairs.append(LivePhoto(clip: clip.path, still: still.path))
            }
        }
        return pairs
    }
}

/// Where a series' time does not run on from one movie to the next: the next movie starts
/// more than 1.5 frames after the previous one ends (a gap: the camera was lost, camrec
/// was stopped), or more than 1.5 frames before (an overlap: the wall clock stepped back).
/// A start read from a movie header (whole seconds) may be up to 1 s early: that second is
/// allowed for.
public struct SeriesGap: Sendable, Equatable {
    /// The movie before and the movie after.
    public var after: String
    /// The movie after it.
    public var before: String
    /// next start − (start + duration), in seconds: positive for a gap, negative for an overlap.
    public var seconds: Double

    /// Whether the next movie starts before the previous one ends.
    public var isOverlap: Bool { seconds < 0 }

    /// The gaps and overlaps between consecutive `movies` (in time order); movies without
    /// a start or duration (unreadable) are passed over.
    static func find(in movies: [LibraryFile]) -> [SeriesGap] {
        let timed = movies.filter { $0.startMilliseconds != nil && $0.endMilliseconds != nil }
        guard timed.count > 1 else { return [] }
        var gaps: [SeriesGap] = []
        for (previous, next) in zip(timed, timed.dropFirst()) {
            guard let end = previous.endMilliseconds, let start = next.startMilliseconds else { continue }
            let seconds = Double(start - end) / 1000
            let frame = previous.frameDuration ?? next.frameDuration ?? 1.0 / 30
            // A start from a movie header is the second it began in: up to 1 s early. Only
            // what that cannot explain counts (an overlap when the next movie's start is
            // such; a gap when the previous one's is).
            let early = next.timeSource == .movieHeader ? 1.0 : 0
            let late = previous.timeSource == .movieHeader ? 1.0 : 0
            if seconds > 1.5 * frame + late || seconds < -(1.5 * frame + early) {
                gaps.append(SeriesGap(after: previous.path, before: next.path, seconds: seconds))
            }
        }
        return gaps
    }
}

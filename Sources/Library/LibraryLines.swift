import CamrecCore
import MediaValues

/// `camrec ls --json`: one `file` line per file and one `series` line per series (after
/// its files' lines), foreign files last. docs/events.schema.json describes them.
package enum LibraryLines {
    /// A `file` line.
    package struct FileLine: Encodable {
        let path: String
        let kind: String
        let series: String?
        let format: String?
        let health: String?
        let reason: String?
        let recover: String?
        let recoveredAs: String?
        let start: String?
        let startSource: String?
        let end: String?
        let duration: Double?
        let frames: Int?
        let framesEstimated: Bool?
        let bytes: Int64
        let videoCodec: String?
        let width: Int?
        let height: Int?
        let sound: String?
        let note: String?
        /// With `ls --thumbs`: the movie's thumbnail.
        package var thumbnail: String? = nil
    }

    /// A `series` line.
    package struct SeriesLine: Encodable {
        let name: String
        let folder: String
        let movies: Int
        let runs: Int
        let clips: [String]
        let stills: [String]
        let livePhotos: [LivePhotoLine]
        let start: String?
        let end: String?
        let duration: Double
        let frames: Int
        let bytes: Int64
        let gaps: [GapLine]
        let unfinished: Int
        let unreadable: Int
    }

    struct LivePhotoLine: Encodable {
        let clip: String
        let still: String
    }

    /// A gap (or an overlap) between two movies of a series.
    package struct GapLine: Encodable {
        let after: String
        let before: String
        let seconds: Double
        let kind: String
    }

    /// `file`'s line; `series`: the series it belongs to (nil: a foreign file).
    package static func file(_ file: LibraryFile, series: String?, utc: Bool) -> FileLine {
        let isMovie = file.kind == .movie || file.kind == .clip
        var reason: String?
        if case .unreadable(let why) = file.health { reason = why }
        return FileLine(
            path: file.path, kind: file.kind.rawValue, series: series, format: file.format,
            health: file.kind == .foreign ? nil : file.health.name, reason: reason, recover: file.recoverCommand,
            recoveredAs: file.recoveredAs,
            start: file.startMilliseconds.map { time($0, utc: utc) }, startSource: file.timeSource?.rawValue,
            end: isMovie ? file.endMilliseconds.map { time($0, utc: utc) } : nil,
            duration: isMovie ? file.duration : nil, frames: isMovie ? file.frames : nil,
            framesEstimated: isMovie && file.frames != nil ? file.framesEstimated : nil, bytes: file.bytes,
            videoCodec: file.videoCodec, width: file.width, height: file.height,
            sound: isMovie && reason == nil ? (file.soundCodec ?? "none") : nil, note: file.note)
    }

    /// `series`'s line, after its files' lines.
    package static func series(_ series: LibrarySeries, utc: Bool) -> SeriesLine {
        SeriesLine(
            name: series.name, folder: series.folder, movies: series.movies.count, runs: series.runs,
            clips: series.clips.map(\.path), stills: series.stills.map(\.path),
            livePhotos: series.livePhotos.map { LivePhotoLine(clip: $0.clip, still: $0.still) },
            start: series.startMilliseconds.map { time($0, utc: utc) }, end: series.endMilliseconds.map { time($0, utc: utc) },
            duration: series.duration, frames: series.frames, bytes: series.bytes,
            gaps: series.gaps.map(gap),
            unfinished: (series.movies + series.clips).filter { $0.health == .unfinished }.count,
            unreadable: (series.movies + series.clips).filter { $0.health.name == "unreadable" }.count)
    }

    /// A gap's line.
    package static func gap(_ gap: SeriesGap) -> GapLine {
        GapLine(after: gap.after, before: gap.before, seconds: gap.seconds, kind: gap.isOverlap ? "overlap" : "gap")
    }

    /// Milliseconds since 1970 as ISO 8601 with milliseconds: local time with its offset, or UTC.
    package static func time(_ milliseconds: Int64, utc: Bool) -> String {
        let seconds = milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000
        return WallTime(seconds: seconds, nanoseconds: (milliseconds - seconds * 1000) * 1_000_000).iso8601(utc: utc)
    }
}

import CamrecCore
import MediaValues

/// `camrec ls` for people: per series a heading (name, folder, movies and runs, when, how
/// long) and a compact table of its movies, with its gaps between them, then its clips
/// and stills; the `camrec recover` command for each unfinished movie; foreign files last.
package enum LibraryTable {
    /// The whole listing of `library`, times in UTC or local time.
    package static func text(_ library: Library, utc: Bool) -> String {
        var lines: [String] = []
        for series in library.series {
            lines += heading(series, utc: utc)
            let day = series.startMilliseconds.map { String(LibraryLines.time($0, utc: utc).prefix(10)) }
            var rows = [["START", "END", "DURATION", "FRAMES", "SIZE", "VIDEO", "SOUND", "HEALTH", "FILE"]]
            var notes: [Int: String] = [:]
            let gaps = Dictionary(series.gaps.map { ($0.after, $0) }, uniquingKeysWith: { first, _ in first })
            for (index, movie) in series.movies.enumerated() {
                rows.append(row(movie, day: day, utc: utc))
                if let gap = gaps[movie.path], index + 1 < series.movies.count {
                    notes[rows.count] = gap.isOverlap
                        ? "  -- overlap of \(seconds(-gap.seconds)) s (the clock stepped back) --"
                        : "  -- gap of \(seconds(gap.seconds)) s --"
                }
            }
            for clip in series.clips { rows.append(row(clip, day: day, utc: utc)) }
            let photos = Dictionary(series.livePhotos.map { ($0.still, $0.clip) }, uniquingKeysWith: { first, _ in first })
            for still in series.stills {
                var cells = row(still, day: day, utc: utc)
                if let clip = photos[still.path] {
                    cells[8] += "  (Live Photo: " + baseName(clip) + ")"
                }
                rows.append(cells)
            }
            let widths = (0..<9).map { column in rows.map { $0[column].count }.max() ?? 0 }
            for (index, cells) in rows.enumerated() {
                if let note = notes[index] { lines.append(note) }
                let numeric: Set<Int> = [2, 3, 4]
                let text = cells.enumerated().map { column, cell in
                    let pad = String(repeating: " ", count: widths[column] - cell.count)
                    return column == 8 ? cell : (numeric.contains(column) && index > 0 ? pad + cell : cell + pad)
                }.joined(separator: "  ")
                lines.append("  " + text)
            }
            for file in series.movies + series.clips {
                if let command = file.recoverCommand { lines.append("  unfinished: \(command)") }
                if let recovered = file.recoveredAs { lines.append("  recovered already: \(PathName.last(file.path)) → \(PathName.last(recovered))") }
                if let writer = file.writer { lines.append("  recording: \(baseName(file.path)) is being written by process \(writer)") }
                if case .unreadable(let why) = file.health { lines.append("  unreadable: \(baseName(file.path)): \(why)") }
            }
            lines.append("")
        }
        if !library.foreign.isEmpty {
            lines.append("Other files (not movies or stills camrec reads):")
            for file in library.foreign { lines.append("  " + file.path) }
        }
        while lines.last == "" { lines.removeLast() }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func heading(_ series: LibrarySeries, utc: Bool) -> [String] {
        var parts: [String] = []
        if !series.movies.isEmpty {
            parts.append("\(series.movies.count) movie\(series.movies.count == 1 ? "" : "s") in \(series.runs) run\(series.runs == 1 ? "" : "s")")
        }
        if !series.clips.isEmpty { parts.append("\(series.clips.count) clip\(series.clips.count == 1 ? "" : "s")") }
        if !series.stills.isEmpty { parts.append("\(series.stills.count) still\(series.stills.count == 1 ? "" : "s")") }
        var line = "\(series.name)  (\(series.folder))  " + parts.joined(separator: ", ")
        if let start = series.startMilliseconds, let end = series.endMilliseconds {
            let from = LibraryLines.time(start, utc: utc)
            let to = LibraryLines.time(end, utc: utc)
            line += ": " + from.prefix(10) + " " + from.dropFirst(11)
                + " → " + (to.prefix(10) == from.prefix(10) ? String(to.dropFirst(11)) : to.prefix(10) + " " + to.dropFirst(11))
                + ", \(seconds(series.duration)) s, \(series.frames) frames"
        }
        return [line]
    }

    private static func row(_ file: LibraryFile, day: String?, utc: Bool) -> [String] {
        let isMovie = file.kind != .still
        let start = file.startMilliseconds.map { clock($0, day: day, utc: utc) + (file.timeSource == .captureTime ? "" : "*") } ?? "?"
        let end = isMovie ? (file.endMilliseconds.map { clock($0, day: day, utc: utc) } ?? "?") : ""
        let duration = isMovie ? (file.duration.map(seconds) ?? "?") : ""
        let frames = isMovie ? (file.frames.map { (file.framesEstimated ? "~" : "") + String($0) } ?? "?") : ""
        var video = file.videoCodec ?? (file.kind == .still ? file.format ?? "" : "?")
        if let width = file.width, let height = file.height, width > 0 { video += " \(width)x\(height)" }
        let sound = isMovie ? (file.soundCodec ?? "none") : ""
        let health = file.kind == .still ? "still" : (file.kind == .clip ? "clip, " : "") + file.health.name
        return [start, end, duration, frames, humanBytes(file.bytes), video, sound, health, baseName(file.path)]
    }

    /// HH:MM:SS.mmm, with the date in front when it is not the series' first day.
    private static func clock(_ milliseconds: Int64, day: String?, utc: Bool) -> String {
        let text = LibraryLines.time(milliseconds, utc: utc)
        let time = String(text.dropFirst(11).prefix(12))
        return text.prefix(10) == day?.prefix(10) ? time : text.prefix(10) + " " + time
    }

    private static func seconds(_ value: Double) -> String {
        let milliseconds = Int64((value * 1000).rounded())
        let fraction = String(abs(milliseconds) % 1000)
        return (milliseconds < 0 ? "-" : "") + String(abs(milliseconds) / 1000) + "." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }

    private static func baseName(_ path: String) -> String {
        path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
    }
}

/// One `camrec ls`: finds and reads the files, groups them, and prints the listing on
/// stdout (a table per series, or JSON lines).
public struct LsJob: Sendable {
    /// Folders, files or OUTPUT patterns; none: the current folder.
    public var paths: [String]
    /// `--json`: one line per file and per series.
    public var json: Bool
    /// `--utc`: times in UTC instead of local time.
    public var utc: Bool
    /// `--thumbs`: a small JPEG per movie and clip, made or reused (``Thumbnails``).
    public var thumbs: Bool

    /// A listing of `paths`.
    public init(paths: [String], json: Bool, utc: Bool, thumbs: Bool = false) {
        self.paths = paths
        self.json = json
        self.utc = utc
        self.thumbs = thumbs
    }

    /// Lists on stdout; an error (nothing to list, a missing folder) goes to `console`.
    public func run(console: Console) -> ExitStatus {
        let library: Library
        do {
            library = Library(try LibraryScan.files(paths))
        } catch {
            console.fail(error)
            return error.status
        }
        let thumbnails = thumbs ? makeThumbnails(library, console: console) : [:]
        if json {
            for series in library.series {
                for file in series.movies + series.clips + series.stills {
                    var line = LibraryLines.file(file, series: series.name, utc: utc)
                    line.thumbnail = thumbnails[file.path]
                    console.emit(line, type: "library-file")
                }
                console.emit(LibraryLines.series(series, utc: utc), type: "library-series")
            }
            for file in library.foreign { console.emit(LibraryLines.file(file, series: nil, utc: utc), type: "library-file") }
        } else {
            print(LibraryTable.text(library, utc: utc), terminator: "")
        }
        return .success
    }

    /// The thumbnails of every complete movie and clip, by movie path; what could not be
    /// made is a warning (the listing goes on).
    private func makeThumbnails(_ library: Library, console: Console) -> [String: String] {
        var made = 0
        var reused = 0
        var paths: [String: String] = [:]
        for series in library.series {
            for file in series.movies + series.clips where file.health == .complete {
                do {
                    switch try Thumbnails.ensure(file.path) {
                    case .made(let path):
                        made += 1
                        paths[file.path] = path
                    case .reused(let path):
                        reused += 1
                        paths[file.path] = path
                    }
                } catch {
                    console.emit(WarningLine(message: "no thumbnail of \(file.path): \(error.message)"), type: "warning")
                    console.say("camrec: warning: no thumbnail of \(file.path): \(error.message)")
                }
            }
        }
        console.say("camrec: thumbnails: \(made) made, \(reused) reused (in \(Thumbnails.folderName)/ beside the movies)")
        return paths
    }
}

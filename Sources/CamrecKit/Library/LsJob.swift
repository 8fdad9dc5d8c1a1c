/// One `camrec ls`: finds and reads the files, groups them, and prints the listing on
/// stdout (a table per series, or JSON lines).
public struct LsJob: Sendable {
    /// Folders, files or OUTPUT patterns; none: the current folder.
    public var paths: [String]
    /// `--json`: one line per file and per series.
    public var json: Bool
    /// `--utc`: times in UTC instead of local time.
    public var utc: Bool

    /// A listing of `paths`.
    public init(paths: [String], json: Bool, utc: Bool) {
        self.paths = paths
        self.json = json
        self.utc = utc
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
        if json {
            for series in library.series {
                for file in series.movies + series.clips + series.stills {
                    console.emit(LibraryLines.file(file, series: series.name, utc: utc), type: "library-file")
                }
                console.emit(LibraryLines.series(series, utc: utc), type: "library-series")
            }
            for file in library.foreign { console.emit(LibraryLines.file(file, series: nil, utc: utc), type: "library-file") }
        } else {
            print(LibraryTable.text(library, utc: utc), terminator: "")
        }
        return .success
    }
}

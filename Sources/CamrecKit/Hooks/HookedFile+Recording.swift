// Here rather than in the Hooks module: the recording's files are above it.
extension HookedFile {
    /// A recording's file, as its `still`, `segment` or `clip` line (or a `movie` line,
    /// for the one movie of a run the result line lists) reports it.
    init(_ file: ResultFile, kind: String, camera: String?, series: String?) {
        let time = file.start ?? file.captureTime
        self.init(path: file.path, kind: kind, start: time.flatMap(Self.milliseconds(iso8601:)), duration: file.duration,
                  frames: file.frames, camera: file.device ?? camera, series: series,
                  line: Console.jsonLine(file, type: kind) ?? "")
    }

    /// Milliseconds since 1970 of an ISO 8601 time as camrec writes them
    /// (`2026-12-01T11:04:30.250+01:00`, `…Z`); nil for any other text.
    static func milliseconds(iso8601 text: String) -> Int64? {
        ISO8601Time.milliseconds(text)
    }
}

import GStreamer

extension RecordingSession {
    /// Starts reading text (`--text`, `--text-every`) from the encoder's input of
    /// `pipeline`, each reading placed by `gate` in the movie `moviePath` names (nil: the
    /// one movie); nil when `config` reads none.
    static func startTextReader(config: RecordConfig, pipeline: Pipeline, gate: FrameGate,
                                moviePath: (@Sendable (Int) -> String?)?,
                                events: @escaping @Sendable (RecordingEvent) -> Void) throws(CamrecError) -> TextReader? {
        guard let settings = config.text else { return nil }
        let outputPath = config.outputPath
        return try TextReader(settings: settings, rate: config.rate, pipeline: pipeline, gate: gate,
                              movie: { file in moviePath?(file) ?? outputPath }, events: events)
    }
}

extension TextReader {
    /// `events` for a still taker: with `--text` (`settings.stills`), each still written is
    /// also given to this reader, which reads its text and keeps it beside it.
    func readingStills(_ settings: RecordingTextSettings?,
                       _ events: @escaping @Sendable (RecordingEvent) -> Void) -> (@Sendable (RecordingEvent) -> Void)? {
        guard settings?.stills == true else { return nil }
        return { [self] event in
            events(event)
            if case .still(let file) = event { readStill(file.path) { events(.warning($0)) } }
        }
    }
}

import GStreamer

/// The end of a recording: committing what the movies hold, or keeping them as written.
extension RecordingSession {
    /// The file is finalised (EOS reached the sink, and with segments the machine saw the
    /// last movies closed, or gave up on `unfinished`): commits what is not yet. `requested`
    /// is the stop that was asked for, nil when the source ended by itself.
    func finish(requested: StopReason?, message: String?, unfinished: [Int],
                        events: @Sendable (RecordingEvent) -> Void) throws(CamrecError) -> RecordingResult {
        let reason = requested ?? .signal
        let stillFiles = stopPipeline()
        guard gate.frames > 0 else {
            plan.discardOpen()
            if requested == .signal || requested == .control {
                // Asked to stop before the first frame came: nothing to keep, nothing wrong.
                return RecordingResult(reason: reason, files: stillFiles, droppedFrames: 0, corruptFrames: corruptFrames,
                                       message: "stopped before the first frame: no movie was made")
            }
            throw CamrecError(.failure, "no frames were recorded: the source delivered nothing")
        }
        let notes = try movies.commitAtEnd(unfinished: unfinished)
        _ = movies.applyRetention(stopping: isStopping, events: events)
        let said = ([message].compactMap { $0 } + notes).joined(separator: "; ")
        return RecordingResult(reason: reason, files: movies.committed + stillFiles, droppedFrames: gate.droppedFrames,
                               corruptFrames: corruptFrames, message: said.isEmpty ? nil : said)
    }

    /// Stops at once and keeps what the open movies hold (see `OutputPlan.keepUnfinalised`).
    func keepUnfinalised(reason: StopReason, cause: String) -> RecordingResult {
        let stillFiles = stopPipeline()
        // An aborted movie is not finished: it stays under its temporary name, never under
        // OUTPUT, for `camrec recover` to finalise.
        let (keptNow, notes, keptPartials) = movies.keepOpen(publish: reason != .aborted)
        let committed = movies.committed
        guard gate.frames > 0, keptNow > 0 || config.standby else {
            plan.discardOpen()
            let note = committed.isEmpty
                ? cause + ": nothing of the movie was written, so no file was kept"
                : cause + ": the finished movies are kept; nothing of the last one was written"
            return RecordingResult(reason: reason, files: committed + stillFiles, droppedFrames: gate.droppedFrames,
                                   corruptFrames: corruptFrames, message: note)
        }
        var note = cause + ": the recording so far is kept as written, not finalised (it plays)"
        if !keptPartials.isEmpty {
            let names = keptPartials.joined(separator: " ")
            note = cause + ": the recording so far is kept unfinalised in \(names) (it plays; camrec recover \(names) finalises it)"
        }
        if config.standby { note = cause + ": the clips made so far are kept" }
        for problem in notes { note += "; \(problem)" }
        return RecordingResult(reason: reason, files: committed + stillFiles, droppedFrames: gate.droppedFrames,
                               corruptFrames: corruptFrames, message: note)
    }
}

/// The movies of one recording session (one pipeline): commits each movie the muxer
/// finalised (a segment) and, at the end, the rest; keeps unfinalised ones as written;
/// applies retention; and lists what was published and what was lost.
final class MovieLedger {
    private let plan: OutputPlan
    private let gate: FrameGate
    /// The run's movie number (0-based) of this pipeline's first movie file: the gate
    /// counts this pipeline's files from 0, the plan the run's.
    private let firstMovie: Int
    private let segmented: Bool
    /// Several cameras' stored streams (`--codec copy`): the run's common start (clock
    /// time, ns) that each movie's `startOffset` is measured from; nil otherwise.
    private let startOrigin: (@Sendable () -> UInt64?)?
    /// Movies committed, in order (less those retention deleted).
    private(set) var committed: [ResultFile] = []
    /// Segments lost while the run went on, by their final names (see `RecordingResult.lostMovies`).
    private(set) var lost: [String] = []
    /// Movies retention passed over because their `--on-file` command had them (warned once each).
    private var waitedFor: Set<String> = []
    /// The `disk-low` event was sent (once: the run stops after it).
    private var saidLow = false

    init(plan: OutputPlan, gate: FrameGate, segmented: Bool, startOrigin: (@Sendable () -> UInt64?)? = nil) {
        self.plan = plan
        self.gate = gate
        self.segmented = segmented
        self.startOrigin = startOrigin
        firstMovie = plan.movieCount - 1
    }

    /// The path of this pipeline's movie file `file` (0-based), once named.
    var moviePath: @Sendable (Int) -> String? {
        let (plan, firstMovie) = (plan, firstMovie)
        return { @Sendable file in plan.finalPath(ofMovie: firstMovie + file) }
    }

    /// Commits movie `index`, which splitmuxsink has finalised; returns the problem to
    /// warn about, if any (the movie was lost: the run goes on and exits 73).
    func commitClosed(_ index: Int, events: @Sendable (RecordingEvent) -> Void) -> String? {
        guard let summary = gate.segment(index - firstMovie), summary.frames > 0 else {
            plan.discard(index)
            return nil
        }
        do {
            var (file, note) = try plan.commitFinalised(index, frames: summary.frames, seconds: summary.seconds,
                                                           captured: summary.firstCapture)
            file.startOffset = startOffset(summary)
            committed.append(file)
            if segmented { events(.segment(file)) }
            // The run goes on; the file stays where the note says, and the run exits 73.
            if let note { events(.warning(note)) }
            return nil
        } catch {
            // Lost (its file removed or replaced under it): said now, and the run exits 73.
            lost.append(plan.finalPath(ofMovie: index) ?? plan.currentPath)
            return error.message
        }
    }

    /// Seconds from the run's common start to the movie's first frame (to the millisecond),
    /// when the run reports it.
    private func startOffset(_ summary: SegmentSummary) -> Double? {
        guard let origin = startOrigin?(), let first = summary.firstClockTime, first >= origin else { return nil }
        return (Double(first - origin) / 1e6).rounded() / 1e3
    }

    /// Applies retention, reporting each deletion (a deleted movie leaves the result);
    /// true when free space stays below `--min-free` with nothing left to delete. While
    /// `stopping`, nothing more is deleted to make room: no movie will need it.
    func applyRetention(freeSpaceOnly: Bool = false, stopping: Bool, events: @Sendable (RecordingEvent) -> Void) -> Bool {
        let (deleted, stillShort, waiting) = plan.applyRetention(freeSpaceOnly: freeSpaceOnly, stopping: stopping)
        for file in deleted {
            events(.deleted(file))
            committed.removeAll { $0.path == file.path }
        }
        for path in waiting where waitedFor.insert(path).inserted {
            events(.warning(RetentionPolicy.waitingMessage(path)))
        }
        // A held movie is free once its command ends: the rule waits for it rather than
        // stopping the run as disk-full.
        let full = stillShort && waiting.isEmpty
        if full, !saidLow, let segments = plan.segments,
           let line = DiskLowLine(policy: segments.retention, folder: segments.naming.folder, action: "stopping") {
            saidLow = true
            events(.diskLow(line))
        }
        return full
    }

    /// The movies are finalised (EOS reached the sink): commits those not committed yet;
    /// segments whose finalising never ended (`unfinished`) are kept as written (they
    /// play). Returns the notes to add to the result's message.
    func commitAtEnd(unfinished: [Int]) throws(CamrecError) -> [String] {
        var notes: [String] = []
        if segmented {
            for index in unfinished {
                guard let kept = plan.keepUnfinalised(index) else { continue }
                committed.append(kept.file)
                if let note = kept.note { notes.append(note) }
            }
            return notes
        }
        for index in plan.openMovies {
            guard let summary = gate.segment(index - firstMovie), summary.frames > 0 else {
                plan.discard(index)
                continue
            }
            var (file, note) = try plan.commitFinalised(index, frames: summary.frames, seconds: summary.seconds,
                                                           captured: summary.firstCapture)
            file.startOffset = startOffset(summary)
            committed.append(file)
            if let note { notes.append(note) }
        }
        return notes
    }

    /// Stopping at once: keeps what the open movies hold, published under their names or
    /// (not `publish`) under their temporary ones. Returns how many were kept, the notes,
    /// and the temporary names kept.
    func keepOpen(publish: Bool) -> (kept: Int, notes: [String], partials: [String]) {
        var (kept, notes, partials) = (0, [String](), [String]())
        for index in plan.openMovies {
            guard let movie = plan.keepUnfinalised(index, publish: publish) else { continue }
            committed.append(movie.file)
            kept += 1
            if let note = movie.note { notes.append(note) }
            if !publish { partials.append(movie.file.path) }
        }
        return (kept, notes, partials)
    }
}

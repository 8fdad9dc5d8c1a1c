import CamrecCore
import CTesseractShim
import GStreamer
import Synchronization

/// Reads the text of a recording's frames (`--text-every`, `camrec ctl SOCKET text`) on a
/// thread of its own at the lowest CPU priority, with one Tesseract instance loaded once.
///
/// Its frames come from a probe on the encoder's input, where every camera format is
/// already decoded and converted (I420 or NV12: the grey picture is the luma plane, no
/// second decoding) and every frame is one of the movie's. The probe compares a
/// timestamp under a lock; a frame that is due (`TextSchedule`) or asked for is handed
/// over when the reader is idle, as a copy of its luma plane (a buffer held for seconds
/// could starve a pool upstream: the camera's, when no conversion is needed), and passed
/// over when it is busy (counted as skipped). Nothing is ever queued, and the recording's
/// thread never waits for the reader.
final class TextReader: Sendable {
    /// Called with the reading asked for by ``request(_:)``.
    typealias Completion = @Sendable (Result<TextResult, CamrecError>) -> Void

    /// A frame handed over by the probe, not yet read.
    private struct Frame: Sendable {
        /// Its luma plane; nil when the encoder's input has none.
        let grey: GreyImage?
        let pts: UInt64
        /// Where it is in the movie, taken when it is handed over (it passed the gate before
        /// the encoder's input): a reader kept waiting for seconds finds it still, where the
        /// gate remembers only the last few seconds.
        let place: (frame: MovieFrameLookup, file: Int)
        /// Whether it is a periodic reading (`--text-every`), not only one asked for.
        let periodic: Bool
        /// Periodic readings passed over since the last frame handed over (the reader busy).
        let skipped: Int
        /// The requests this frame answers.
        let answers: [Completion]
    }

    private struct State: Sendable {
        var schedule: TextSchedule?
        /// The movie's first frame's timestamp (camera time 0), once the gate knows it.
        var origin: UInt64?
        var frame: Frame?
        /// From the hand-over of a frame until its reading is reported (and while the
        /// models load): frames are passed over.
        var busy = true
        var closed = false
        /// Set by ``finish()`` when it stopped waiting for a reading: it is not reported.
        var abandoned = false
        /// While a reading is being reported (``finish()`` waits for that, however late).
        var reporting = false
        /// Requests waiting for the next frame.
        var asked: [Completion] = []
        var skipped = 0
        /// Stills written (`--text`) whose text is still to read, oldest first.
        var stills: [String] = []
        /// The still being read, until its reading is reported.
        var readingStill: String?
    }

    /// What the reader's thread does next.
    private enum Work {
        case frame(Frame)
        case still(String)
    }

    /// The most stills waiting to be read; more are not read (a warning says so).
    static let maximumWaitingStills = 16

    private let state: Monitor<State>
    private let probe = Mutex<ProbeToken?>(nil)
    /// Where readings and warnings go (`text`, `warning` lines).
    private let events: @Sendable (RecordingEvent) -> Void

    /// How long ``finish()`` waits for a reading under way, so that its line comes before
    /// the result's.
    static let finishWait: Duration = .seconds(10)

    /// Starts reading the frames at the encoder's input ("encoder" in `pipeline`) as
    /// `settings` ask: `gate` says where each frame is in the movie, `movie` names the
    /// movie file of a file number, `events` gets each reading (`text`) and warnings.
    /// Returns once the models are loaded (a failure to load them is a warning, and no
    /// text is read).
    init(settings: RecordingTextSettings, rate: FrameRateValue, pipeline: Pipeline, gate: FrameGate,
         movie: @escaping @Sendable (Int) -> String,
         events: @escaping @Sendable (RecordingEvent) -> Void) throws(CamrecError) {
        state = Monitor(State(schedule: settings.every.map { TextSchedule(every: $0, rate: rate) }))
        self.events = events
        let pad: Pad
        do {
            pad = try pipeline.element(named: "encoder").staticPad("sink")
        } catch {
            throw CamrecError(.usage, "the pipeline template needs its encoder named 'encoder' to read text (\(error))")
        }
        let context = Context(settings: settings, pipeline: pipeline, gate: gate, movie: movie, events: events)
        NamedThread.start("camrec-text") { [self] in work(context) }
        // The models are loaded before the first frame can come, so that it is read too.
        state.wait(until: { !$0.busy }) { _, _ in }
        let token = pad.addProbe(.buffer) { [self] info in
            if let buffer = info.buffer { offer(buffer, pad: pad, gate: gate) }
            return .pass
        }
        probe.withLock { $0 = token }
    }

    /// Asks for the text of the next frame; false once the reader has finished.
    @discardableResult
    func request(_ completion: @escaping Completion) -> Bool {
        state.withLock { state in
            guard !state.closed else { return false }
            state.asked.append(completion)
            return true
        }
    }

    /// Stops taking frames, waits a little for the reading under way and the stills waiting
    /// (see `finishWait`; a still under way then is not reported, and those still waiting
    /// are not read: a warning names each) and answers the requests left with a failure.
    func finish() {
        let token = probe.withLock { token in
            defer { token = nil }
            return token
        }
        token?.remove()
        close()
        let done = state.wait(until: { !$0.busy && $0.stills.isEmpty }, deadline: .now + Self.finishWait) { state, ready in
            if !ready, !state.reporting { state.abandoned = true }
            return ready || state.abandoned
        }
        // A reading being reported when the time ran out is let finish: the line is whole.
        if !done { state.wait(until: { !$0.reporting }) { state, _ in state.abandoned = true } }
        let (unread, cut) = state.withLock { state in
            defer { state.stills = [] }
            return (state.stills, state.abandoned ? state.readingStill : nil)
        }
        if let cut { events(.warning("the text of \(cut) is not reported: the recording ended while it was read")) }
        for path in unread { events(.warning("the text of \(path) is not read: the recording ended first")) }
    }

    /// Reads the text of the still at `path` when the reader is free (before the next
    /// frame due is handed over), reports it and writes it to NAME.txt beside the still.
    func readStill(_ path: String, warn: (String) -> Void) {
        let queued = state.withLockWaking { state -> Bool in
            guard !state.closed else { return true }
            guard state.stills.count < Self.maximumWaitingStills else { return false }
            state.stills.append(path)
            return true
        }
        if !queued { warn("the text of \(path) is not read: \(Self.maximumWaitingStills) stills are waiting for theirs already") }
    }

    /// Takes no more requests, and fails those waiting.
    private func close() {
        let left = state.withLockWaking { state in
            state.closed = true
            defer { state.asked = [] }
            return state.asked
        }
        for completion in left { completion(.failure(CamrecError(.failure, "the recording ended before the next frame"))) }
    }

    /// On the streaming thread, for every frame at the encoder's input: takes it when it is
    /// due or asked for and the reader is idle. Only arithmetic under the lock; a frame
    /// taken costs a copy of its luma plane.
    private func offer(_ buffer: BufferView, pad: Pad, gate: FrameGate) {
        guard let pts = buffer.pts else { return }
        let taken = state.withLock { state -> (periodic: Bool, skipped: Int, answers: [Completion])? in
            guard !state.closed else { return nil }
            if state.origin == nil { state.origin = gate.firstFramePTS }
            // Frames before the movie's first (settling frames) are not in the movie.
            guard let origin = state.origin, pts >= origin else { return nil }
            let due = state.schedule?.isDue(time: pts - origin) ?? false
            guard due || !state.asked.isEmpty else { return nil }
            guard !state.busy else {
                if due { state.skipped += 1 }
                return nil
            }
            defer { (state.asked, state.skipped, state.busy) = ([], 0, true) }
            return (due, state.skipped, state.asked)
        }
        guard let taken else { return }
        let layout = buffer.videoMeta ?? pad.currentCaps?.videoLayout
        let grey = layout.flatMap { layout in layout.hasLumaPlane ? buffer.withBytes { GreyImage(luma: $0, layout: layout) } ?? nil : nil }
        let place = gate.place(pts: pts)
        state.withLockWaking { state in
            state.frame = Frame(grey: grey, pts: pts, place: place, periodic: taken.periodic, skipped: taken.skipped,
                                answers: taken.answers)
        }
    }

    /// What the reader's thread reads with.
    private struct Context: Sendable {
        let settings: RecordingTextSettings
        let pipeline: Pipeline
        let gate: FrameGate
        let movie: @Sendable (Int) -> String
        let events: @Sendable (RecordingEvent) -> Void
    }

    private func work(_ context: Context) {
        let recognizer: TextRecognizer
        do {
            // At the usual priority: the recording waits for the models before it starts.
            recognizer = try TextRecognizer(languages: context.settings.languages)
            // Then below everything else: the movie's threads always come first.
            camrec_thread_lowest_priority()
        } catch {
            context.events(.warning("no text is read: \(error.message)"))
            close()
            state.withLockWaking { $0.busy = false }
            return
        }
        var changes = TextChangeFilter(changesOnly: context.settings.changesOnly)
        var warned = false
        state.withLockWaking { $0.busy = false }
        while true {
            // A frame handed over comes first (it may answer `ctl text`), then the stills
            // waiting; no frame is taken meanwhile (busy). While `ctl text` waits, no still
            // is begun: the reader stays idle for the next frame, which answers it, so that
            // stills coming faster than the reader reads them cannot keep it waiting.
            let next: Work? = state.wait(until: Self.hasWork) { state, _ in
                if state.abandoned { return nil }
                if Self.stillComesNext(state) {
                    state.busy = true
                    state.readingStill = state.stills.removeFirst()
                    return state.readingStill.map(Work.still)
                }
                defer { state.frame = nil }
                return state.frame.map(Work.frame)
            }
            switch next {
            case nil:
                return
            case .still(let path)?:
                let result = readStill(path, recognizer, context)
                report { if case .success(let text) = result { context.events(.text(text)) } }
                if case .failure(let error) = result { report { context.events(.warning("the text of \(path) was not kept: \(error.message)")) } }
            case .frame(let frame)?:
                let result = read(frame, recognizer, context)
                report {
                    switch result {
                    case .success(let text):
                        if changes.reports(text.text, asked: !frame.answers.isEmpty) { context.events(.text(text)) }
                    case .failure(let error):
                        if !warned { context.events(.warning("text not read: \(error.message)")) }
                        warned = true
                    }
                }
                for answer in frame.answers { answer(result) }
            }
            state.withLockWaking { state in
                state.reporting = false
                state.busy = false
                state.readingStill = nil
            }
        }
    }

    /// Whether the reader's thread has something to do: a frame handed over, a still to
    /// read while no request waits for the next frame, or the end.
    private static func hasWork(_ state: State) -> Bool {
        state.frame != nil || stillComesNext(state) || state.closed
    }

    /// Whether the next thing read is a still: one waits, and neither a frame handed over
    /// nor a request for the next frame (a still begun now would keep it waiting for a
    /// whole reading, or for good while stills keep coming faster than they are read).
    private static func stillComesNext(_ state: State) -> Bool {
        !state.stills.isEmpty && state.frame == nil && state.asked.isEmpty
    }

    /// Runs `body` (which reports a reading) unless ``finish()`` gave up waiting for it.
    private func report(_ body: () -> Void) {
        let may = state.withLock { state in
            state.reporting = !state.abandoned
            return state.reporting
        }
        if may { body() }
    }

    /// Reads a still's text (as `camrec still --text`, within `--text-region`) and writes
    /// it to NAME.txt beside it.
    private func readStill(_ path: String, _ recognizer: TextRecognizer, _ context: Context) -> Result<TextResult, CamrecError> {
        Result { () throws(CamrecError) -> TextResult in
            var text = try TextJob.readStill(path, recognizer, region: context.settings.region,
                                             minimumConfidence: context.settings.minimumConfidence)
            let sidecar = OutputFile.split(path).0 + ".txt"
            try AtomicFile.write(Array((text.text.isEmpty ? "" : text.text + "\n").utf8), to: sidecar, replace: false)
            text.trigger = "still"
            text.textFile = sidecar
            return text
        }
    }

    /// Reads one frame: its luma plane, its place in the movie from the
    /// gate, its capture time from the pipeline's clock.
    private func read(_ frame: Frame, _ recognizer: TextRecognizer, _ context: Context) -> Result<TextResult, CamrecError> {
        guard let grey = frame.grey else {
            return .failure(CamrecError(.failure, "the encoder's input is not a YUV picture camrec can read text in"))
        }
        let words: [TextResult.RawWord]
        do {
            words = try recognizer.recognize(grey, region: context.settings.region)
        } catch {
            return .failure(error)
        }
        let place = frame.place.frame == .pending ? context.gate.place(pts: frame.pts) : frame.place
        var time: Double?
        var index: Int?
        if case .found(let found, let seconds) = place.frame {
            index = found
            time = (seconds * 1000).rounded() / 1000
        }
        let captured = context.pipeline.clockTime.map { clockNow in
            CaptureTime.of(runningTime: frame.pts, baseTime: context.pipeline.baseTime, clockNow: clockNow, wallNow: .now())
        }
        var result = TextResult(input: context.movie(place.file), time: time, captured: captured?.iso8601(utc: false),
                                width: grey.width, height: grey.height, region: context.settings.region,
                                languages: recognizer.languages, words: words, minimumConfidence: context.settings.minimumConfidence)
        result.frame = index
        result.trigger = frame.periodic ? "periodic" : "control"
        result.skipped = frame.periodic ? frame.skipped : nil
        return .success(result)
    }
}

extension GreyImage {
    /// The luma plane of a raw frame laid out as `layout` (plane 0 one byte a pixel); nil
    /// when `bytes` is too short for it.
    init?(luma bytes: UnsafeRawBufferPointer, layout: VideoFrameLayout) {
        let (width, height) = (layout.width, layout.height)
        guard width > 0, height > 0, let offset = layout.offsets.first, let stride = layout.strides.first, stride >= width,
              offset >= 0, offset + stride * (height - 1) + width <= bytes.count else { return nil }
        var pixels = [UInt8](repeating: 0, count: width * height)
        pixels.withUnsafeMutableBytes { target in
            for row in 0..<height {
                let from = bytes.baseAddress.map { $0 + offset + row * stride }
                if let from, let to = target.baseAddress { (to + row * width).copyMemory(from: from, byteCount: width) }
            }
        }
        self.init(width: width, height: height, pixels: pixels)
    }
}

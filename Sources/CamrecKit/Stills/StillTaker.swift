import FoundationEssentials
import GStreamer
import Synchronization

/// Takes stills from the recording's stills branch on a thread of its own: for each
/// request it takes the newest frame (or waits for the next one), encodes it, writes it
/// atomically under a fresh name, and reports where it is in the movie.
final class StillTaker: Sendable {
    /// Replaced by `replaceSink`; read once per still.
    private let sink: Mutex<AppSink>
    private let settings: StillSettings
    /// Where frames are in the movie; nil without one (`camrec preview`).
    private let gate: FrameGate?
    private let events: @Sendable (RecordingEvent) -> Void

    /// The requests and what became of them, shared with the stills thread.
    private struct Queue: Sendable {
        var requests: [Request] = []
        var working = false
        var closed = false
        var taken: [ResultFile] = []
        var nextNumber = 1
    }
    private let queue = Monitor(Queue())
    private let moviePath: (@Sendable (Int) -> String?)?
    /// Passthrough: the compressed frames since the last keyframe, decoded for a still.
    private let keeper: GOPKeeper?
    /// Where a frame (by its timestamp) is in the movie, instead of asking `gate` (a
    /// camera's stills in a composed run: through the canvas frame that shows it).
    private let placement: (@Sendable (UInt64) -> (frame: MovieFrameLookup, file: Int))?
    /// A camera's stills in a composed run: its device and rectangle, on every still.
    private let camera: (device: String, rect: PixelRect)?
    /// Takers asked for a still whenever this one is (each camera's, beside the canvas's).
    private let followers: [StillTaker]
    /// Signalled at each frame the recording branch lets through: `gate`'s, or the canvas
    /// gate's for a camera's stills in a composed run.
    private let frameSignal: EventCount?
    /// The frame (by timestamp) whose capture time a still's EXIF gives, for a frame made
    /// of others (a canvas frame: its cameras'); nil: the still's frame's own.
    private let capturedAs: (@Sendable (UInt64) -> UInt64?)?

    /// `moviePath` names the movie file a still's frame is in (by the gate's file number),
    /// for a run of several movies; nil when there is one.
    /// With `keeper`, stills are decoded from the frames it keeps (a passthrough recording).
    /// `placement` says where a frame is instead of `gate`; `camera` marks every still
    /// with a camera's device and rectangle; `followers` take a still at every request;
    /// `frameSignal` wakes the wait for a frame's place (default: `gate`'s); `capturedAs`
    /// names the frame whose capture time a still carries.
    init(sink: AppSink, settings: StillSettings, gate: FrameGate?,
         moviePath: (@Sendable (Int) -> String?)? = nil, keeper: GOPKeeper? = nil,
         placement: (@Sendable (UInt64) -> (frame: MovieFrameLookup, file: Int))? = nil,
         camera: (device: String, rect: PixelRect)? = nil, followers: [StillTaker] = [],
         frameSignal: EventCount? = nil, capturedAs: (@Sendable (UInt64) -> UInt64?)? = nil,
         events: @escaping @Sendable (RecordingEvent) -> Void) {
        self.sink = Mutex(sink)
        self.capturedAs = capturedAs
        self.frameSignal = frameSignal ?? gate?.admitted
        self.placement = placement
        self.camera = camera
        self.followers = followers
        self.keeper = keeper
        self.settings = settings
        self.gate = gate
        self.moviePath = moviePath
        self.events = events
        NamedThread.start("camrec-stills") { [self] in work() }
    }

    /// Called with the outcome of one still.
    typealias Completion = @Sendable (Result<ResultFile, CamrecError>) -> Void

    /// Called with the chosen frame's timestamp, before the still is encoded.
    typealias FrameChosen = @Sendable (UInt64) -> Void

    private struct Request: Sendable {
        let trigger: StillTrigger
        let time: ContinuousClock.Instant
        let notBefore: UInt64?
        let completion: Completion?
        var onFrame: FrameChosen?
    }

    /// Queues a still; false once the recording is finishing. With `notBefore`, the still
    /// is the first frame whose timestamp is at least that (a periodic still names the
    /// frame that reached its time, which may not have reached the stills branch yet).
    @discardableResult
    /// `onFrame` learns which frame it is (its timestamp) as soon as it is chosen.
    func request(_ trigger: StillTrigger, notBefore: UInt64? = nil, completion: Completion? = nil,
                 onFrame: FrameChosen? = nil) -> Bool {
        let queued = queue.withLockWaking { queue in
            guard !queue.closed else { return false }
            queue.requests.append(Request(trigger: trigger, time: .now, notBefore: notBefore, completion: completion,
                                          onFrame: onFrame))
            return true
        }
        if queued { for follower in followers { follower.request(trigger, notBefore: notBefore) } }
        return queued
    }

    /// Takes later stills from `sink` instead (a camera's branch rebuilt after a reconnect).
    func replaceSink(_ sink: AppSink) {
        self.sink.withLock { $0 = sink }
    }

    /// Stills written so far (the followers' too).
    var files: [ResultFile] { queue.withLock { $0.taken } + followers.flatMap(\.files) }

    /// Takes the stills still queued, then stops the thread; returns every still written
    /// (this taker's, then the followers').
    func finish() -> [ResultFile] {
        queue.withLockWaking { $0.closed = true }
        let own = queue.wait(until: { !$0.working && $0.requests.isEmpty }) { queue, _ in queue.taken }
        return own + followers.flatMap { $0.finish() }
    }

    private func work() {
        let format = settings.format
        // Built here, off the recording's start-up path.
        let encoder = Result { () throws(CamrecError) in try StillEncoder(format: format) }
        if keeper != nil { StillDecoder.warmUp() }
        while true {
            let next: Request? = queue.wait(until: { !$0.requests.isEmpty || $0.closed }) { queue, _ in
                guard !queue.requests.isEmpty else { return nil }
                queue.working = true
                return queue.requests.removeFirst()
            }
            guard let next else { return }
            let result = take(next.trigger, requestedAt: next.time, notBefore: next.notBefore, onFrame: next.onFrame,
                              encoder: encoder)
            // Reported before `finish()` can return: a still's line never follows the result.
            switch result {
            case .success(let file): events(.still(file))
            case .failure(let error): events(.warning("still not taken: \(error.message)"))
            }
            next.completion?(result)
            queue.withLockWaking { queue in
                queue.working = false
                if case .success(let file) = result { queue.taken.append(file) }
            }
        }
    }

    /// The newest frame, decoded from the kept GOP in a passthrough recording.
    private func newestFrame(notBefore: UInt64?) -> Result<Sample, CamrecError> {
        if let keeper {
            guard let kept = keeper.newest(notBefore: notBefore, timeout: .seconds(1)) else {
                return .failure(CamrecError(.failure, "no frame arrived within 1 s"))
            }
            return Result { () throws(CamrecError) in try StillDecoder.decodeNewest(kept.frames, caps: kept.caps) }
        }
        let sink = self.sink.withLock { $0 }
        var pulled = sink.pullSample(timeoutNanoseconds: 1_000_000_000)
        // An older frame than the one asked for: wait for the next (a few at most).
        for _ in 0..<8 {
            guard let notBefore, let sample = pulled, let pts = sample.timing?.pts, pts < notBefore else { break }
            pulled = sink.pullSample(timeoutNanoseconds: 1_000_000_000)
        }
        guard let sample = pulled else {
            return .failure(CamrecError(.failure, "no frame arrived within 1 s"))
        }
        return .success(sample)
    }

    private func take(_ trigger: StillTrigger, requestedAt: ContinuousClock.Instant,
                      notBefore: UInt64?, onFrame: FrameChosen?,
                      encoder: Result<StillEncoder, CamrecError>) -> Result<ResultFile, CamrecError> {
        let sample: Sample
        switch newestFrame(notBefore: notBefore) {
        case .success(let newest): sample = newest
        case .failure(let error): return .failure(error)
        }
        if let onFrame, let pts = sample.timing?.pts { onFrame(pts) }
        let captured = StillStamp.captureTime(of: sample, in: self.sink.withLock { $0 }, capturedAs: capturedAs)
        do throws(CamrecError) {
            let encoded = try encoder.get().encode(sample)
            // The EXIF goes in before the still is written: the file appears whole, with it.
            let (bytes, warning) = StillStamp.apply(encoded, format: settings.format, captured: captured, tags: settings.tags)
            if let warning { events(.warning(warning)) }
            let number = queue.withLock { $0.nextNumber }
            let written = try AtomicFile.writeNew(bytes, naming: settings.naming, from: number)
            queue.withLock { $0.nextNumber = written.number + 1 }
            let latency = (ContinuousClock.now - requestedAt) / .milliseconds(1)
            let place = sample.timing?.pts.map(movieFrame) ?? (.absent, 0)
            var file = ResultFile(path: written.path, kind: "still", duration: nil, frames: nil, bytes: Int64(bytes.count))
            if case .found(let index, let seconds) = place.frame {
                file.frame = index
                file.pts = (seconds * 1_000_000).rounded() / 1_000_000
                file.movie = moviePath?(place.file)
            }
            file.latencyMs = (latency * 10).rounded() / 10
            file.captureTime = captured.iso8601(utc: false)
            file.trigger = trigger
            if let camera {
                file.device = camera.device
                file.rect = camera.rect
            }
            return .success(file)
        } catch {
            return .failure(error)
        }
    }

    /// Waits (at most 2 s) for the recording branch to reach the frame, to say where it is:
    /// woken at each frame the branch lets through (`frameSignal`).
    private func movieFrame(_ pts: UInt64) -> (frame: MovieFrameLookup, file: Int) {
        guard let place = placement ?? gate.map({ gate in { gate.place(pts: $0) } }) else { return (.absent, 0) }
        let deadline = ContinuousClock.now + .seconds(2)
        while true {
            let seen = frameSignal?.current ?? 0
            let lookup = place(pts)
            let left = deadline - ContinuousClock.now
            if lookup.frame != .pending || left <= .zero { return lookup }
            // Every taker with a place to ask has a signal (its gate's, or the canvas gate's).
            guard let frameSignal else { return lookup }
            frameSignal.wait(since: seen, timeout: min(.milliseconds(100), left))
        }
    }
}

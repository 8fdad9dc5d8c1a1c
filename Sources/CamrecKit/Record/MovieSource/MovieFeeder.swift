import CamrecCore
import GStreamer
import Synchronization

/// Plays a movie (``MovieSource``) into a recording as a camera would deliver it: a
/// pipeline of its own decodes the movie, scales it and makes its rate steady, and its
/// appsink, synchronised to the clock, hands over each frame at the moment it is due.
/// The frame goes into the recording's live appsrc stamped with the recording's running
/// time at that moment, so that every part of the recording (the exact limit, segments,
/// clips, stills' capture times) treats it as a camera's frame.
///
/// At the movie's end it starts again (`--loop`), or tells the recording (`ended`) and
/// ends the appsrc's stream. A movie that fails mid-way ends the same way, with its message.
final class MovieFeeder: Sendable {
    let movie: MovieSource
    private let pipeline: Pipeline
    private let bus: Bus
    private let frames: AppSink
    private let target: AppSrc
    private let recording: Element
    private let frameDuration: UInt64
    private struct State {
        var callbacks: AppSinkCallbacksToken?
        var stopped = false
        /// Frames handed to the recording (the appsrc may still drop one when it is full).
        var pushed = 0
        /// Times the movie started again (`--loop`).
        var loops = 0
        /// Where the last frame handed over ends on the feeder's running time.
        var releasedUpTo: UInt64?
        /// The last frame's stamp on the recording's running time.
        var lastStamp: UInt64?
        /// How much later than its segment says the appsink releases frames (ns).
        var offset: UInt64 = 0
    }
    private let state = Mutex(State())
    /// Posted on the feeder's own bus to end its reading thread.
    private static let stopMessage = "camrec-movie-stop"

    /// A feeder of `movie` into `target`, the appsrc of the `recording` pipeline, whose
    /// clock stamps the frames. The movie is opened and its first frame decoded here
    /// (PAUSED): a movie that cannot be played fails before the recording starts.
    init(movie: MovieSource, into target: AppSrc, recording: Element) throws(CamrecError) {
        self.movie = movie
        self.target = target
        self.recording = recording
        frameDuration = UInt64((1e9 / max(movie.format.rate.framesPerSecond, 1e-3)).rounded())
        let description = "filesrc location=\"\(RecordPipeline.escapeForParser(movie.path))\" ! decodebin name=decode"
            + " decode. ! videoconvert name=convert ! queue max-size-buffers=3 max-size-bytes=0 max-size-time=0"
            + " ! videoscale" + (movie.changesRate ? " ! videorate" : "") + " ! capsfilter caps=\"\(Self.caps(movie))\""
            + " ! appsink name=frames sync=true max-buffers=2 drop=false enable-last-sample=false"
        let name = "--device \(movie.deviceName)"
        do {
            pipeline = try Pipeline.parse(description)
            frames = try AppSink(pipeline.element(named: "frames"))
        } catch {
            throw CamrecError(.unavailable, "\(name): cannot build its decoding pipeline: \(error.namingPackage)")
        }
        guard let bus = pipeline.bus else { throw CamrecError(.failure, "\(name): its decoding pipeline has no bus") }
        self.bus = bus
        do {
            _ = try pipeline.setStateThrowingPostedError(.paused)
        } catch {
            _ = try? pipeline.setState(.null)
            throw CamrecError(.invalidInput, "\(name) cannot be played: \(error)")
        }
        if case .stillChanging = pipeline.waitForStateChange(timeoutNanoseconds: 10_000_000_000) {
            _ = try? pipeline.setState(.null)
            throw CamrecError(.invalidInput, "\(name): no frame decoded within 10 s: check it with ffprobe")
        }
        if let failure = Self.firstError(on: bus) {
            _ = try? pipeline.setState(.null)
            throw CamrecError(.invalidInput, "\(name) cannot be played: \(failure.message)")
        }
    }

    /// Starts playing (call once the recording's pipeline plays); `ended` is called once,
    /// on the feeder's own thread, when the movie ended without `--loop` (nil) or failed
    /// (its message), just before the appsrc's stream ends.
    func start(ended: @escaping @Sendable (String?) -> Void) throws(CamrecError) {
        let token = frames.setCallbacks(newSample: { [self] view in
            guard let sample = view.pullSample(), let buffer = sample.buffer else { return .ok }
            hand(buffer, released: sample.segment.flatMap { segment in buffer.pts.flatMap { segment.runningTime(of: $0) } })
            return .ok
        })
        state.withLock { $0.callbacks = token }
        // --loop: played as a segment, whose end is announced ("segment-done") instead of
        // ending the stream; the next pass is a seek without flushing, so the running time
        // goes on and its first frame comes one frame after the last.
        if movie.loop, pipeline.seek(to: 0, stop: passEnd, flags: [.flush, .accurate, .segment]) {
            _ = pipeline.waitForStateChange(timeoutNanoseconds: 10_000_000_000)
        }
        do {
            _ = try pipeline.setStateThrowingPostedError(.playing)
        } catch {
            stop()
            throw CamrecError(.invalidInput, "--device \(movie.deviceName) cannot be played: \(error)")
        }
        NamedThread.start("camrec-movie") { [self] in readBus(ended: ended) }
    }

    /// Stops playing; safe to call more than once, from any thread.
    func stop() {
        let token = state.withLock { state -> AppSinkCallbacksToken? in
            state.stopped = true
            defer { state.callbacks = nil }
            return state.callbacks
        }
        token?.remove()
        _ = bus.postApplicationMessage(Self.stopMessage)
        _ = try? pipeline.setState(.null)
    }

    /// The caps the feeder makes: the recording's, without the rate when the movie's own is
    /// kept (a movie's caps may say it a little differently, e.g. 2997/100 for 30000/1001).
    static func caps(_ movie: MovieSource) -> String {
        guard !movie.changesRate else { return movie.format.caps }
        return movie.format.caps.split(separator: ",").filter { !$0.hasPrefix("framerate=") }.joined(separator: ",")
    }

    /// Where a pass of `--loop` ends: the movie's duration. Given as the segment's end, it
    /// is what the running time grows by each pass (a demuxer left to itself may count only
    /// up to its last frame's start, and the next pass's first frame would come with it).
    private var passEnd: UInt64? { movie.duration.map { UInt64(($0 * 1e9).rounded()) } }

    /// Frames handed over so far, and how many times the movie started again.
    var progress: (frames: Int, loops: Int) { state.withLock { ($0.pushed, $0.loops) } }

    /// Hands one decoded frame to the recording, stamped with the recording's running time
    /// now (the appsink released it when it was due: at `released` on the feeder's running
    /// time, plus the offset). Called on the feeder's streaming thread.
    ///
    /// A pass of `--loop` continues the running time from where the demuxer says the last
    /// one ended, which may be the last frame's start rather than its end (matroskademux
    /// does so): its first frame would come with the last. The rest of the pass is then
    /// released that much later (the appsink's ts-offset), and that one frame is stamped a
    /// frame after the last, so that no two frames share a moment and no drift builds up.
    private func hand(_ buffer: Buffer, released: UInt64?) {
        guard let now = recording.clockTime else { return }
        let base = recording.baseTime
        let nowRunning = now >= base ? now - base : 0
        let duration = buffer.duration ?? frameDuration
        let (pts, shift) = state.withLock { state -> (UInt64, UInt64?) in
            var shift: UInt64?
            if let released {
                var due = released + state.offset
                if let expected = state.releasedUpTo, due + duration / 2 < expected {
                    state.offset += expected - due
                    shift = state.offset
                    due = expected
                }
                state.releasedUpTo = due + duration
            }
            var pts = nowRunning
            if let last = state.lastStamp, pts < last + frameDuration / 2 { pts = last + frameDuration }
            state.lastStamp = pts
            return (pts, shift)
        }
        if let shift { try? frames.set("ts-offset", Int(clamping: shift)) }
        guard let stamped = buffer.edited({ frame in
            frame.pts = pts
            frame.dts = nil
            frame.duration = duration
        }) else { return }
        guard !state.withLock({ $0.stopped }) else { return }
        if target.push(stamped) == .ok { state.withLock { $0.pushed += 1 } }
    }

    /// Reads the feeder's bus until it is stopped: at the movie's end, starts again
    /// (`--loop`) or ends; on an error, ends with its message.
    private func readBus(ended: @Sendable (String?) -> Void) {
        while true {
            guard let message = bus.pop(timeoutNanoseconds: nil) else { continue }
            switch message {
            case .application(_, Self.stopMessage):
                return
            case .other(_, "segment-done"):
                if !state.withLock({ $0.stopped }), pipeline.seek(to: 0, stop: passEnd, flags: [.accurate, .segment]) {
                    state.withLock { $0.loops += 1 }
                    continue
                }
                finish(nil, ended: ended)
                return
            case .endOfStream:
                finish(nil, ended: ended)
                return
            case .error(let failure):
                finish("the movie failed to play on: \(failure.message)", ended: ended)
                return
            default:
                continue
            }
        }
    }

    /// Tells the recording the movie is over (unless it was stopped), then ends the appsrc's stream.
    private func finish(_ message: String?, ended: @Sendable (String?) -> Void) {
        guard !state.withLock({ $0.stopped }) else { return }
        ended(message)
        target.endOfStream()
    }

    /// The first error waiting on `bus`, other messages dropped (the pipeline is not playing yet).
    private static func firstError(on bus: Bus) -> ElementFailure? {
        while let message = bus.pop(timeoutNanoseconds: 0) {
            if case .error(let failure) = message { return failure }
        }
        return nil
    }
}

import GStreamer
import Synchronization

/// One stream of a movie played as a source (its picture, or its sound with `--audio
/// file`): the feeder's appsink, synchronised to the clock, hands each buffer to the
/// recording's live appsrc when it is due, restamped on the recording's running time.
///
/// - The picture is stamped with the moment it is handed over, as a camera's frame
///   carries the moment it was captured.
/// - The sound is stamped with the moment it was due (its running time in the feeder,
///   moved to the recording's), so that its samples stay back to back.
///
/// A pass of `--loop` continues the running time from where the demuxer says the last one
/// ended, which may be the last frame's start rather than its end (matroskademux does so):
/// the pass's first buffer would then overlap the last. The rest of the pass is released
/// that much later (the appsink's ts-offset), and a picture frame that would share a
/// moment with the last is stamped a frame after it, so that no drift builds up.
final class FeedStream: Sendable {
    /// How the stream's buffers are stamped.
    enum Stamping: Sendable {
        /// When handed over; `frameDuration` for a frame that says none.
        case arrival(frameDuration: UInt64)
        /// When due.
        case due
    }

    private let sink: AppSink
    private let target: AppSrc
    private let recording: Element
    private let feeder: Element
    private let stamping: Stamping
    private struct State {
        var callbacks: AppSinkCallbacksToken?
        var stopped = false
        /// Buffers handed to the recording (its appsrc may still drop one when full).
        var pushed = 0
        /// Where the last buffer handed over ends on the feeder's running time.
        var releasedUpTo: UInt64?
        /// The last buffer's stamp on the recording's running time.
        var lastStamp: UInt64?
        /// How much later than its segment says the appsink releases buffers (ns).
        var offset: UInt64 = 0
        /// The running time the current pass's segment starts at (each pass of `--loop` has its own).
        var pass: UInt64?
    }
    private let state = Mutex(State())

    /// The stream from `sink` (in the `feeder` pipeline) into `target` (in `recording`).
    init(sink: AppSink, into target: AppSrc, feeder: Element, recording: Element, stamping: Stamping) {
        self.sink = sink
        self.target = target
        self.feeder = feeder
        self.recording = recording
        self.stamping = stamping
    }

    /// Starts handing buffers over (before the feeder plays).
    func start() {
        let token = sink.setCallbacks(newSample: { [self] view in
            guard let sample = view.pullSample(), let buffer = sample.buffer else { return .ok }
            let segment = sample.segment
            hand(buffer, released: segment.flatMap { segment in buffer.pts.flatMap { segment.runningTime(of: $0) } },
                 pass: segment?.base)
            return .ok
        })
        state.withLock { $0.callbacks = token }
    }

    /// Stops handing buffers over; safe to call more than once.
    func stop() {
        let token = state.withLock { state -> AppSinkCallbacksToken? in
            state.stopped = true
            defer { state.callbacks = nil }
            return state.callbacks
        }
        token?.remove()
    }

    /// Ends the recording's stream after the buffers handed over.
    func end() {
        target.endOfStream()
    }

    /// How far a pass's first buffer may start before the last one's end without being
    /// moved (a container's rounded times).
    static let slack: UInt64 = 500_000

    /// Buffers handed over so far.
    var pushed: Int { state.withLock { $0.pushed } }

    /// Hands one buffer to the recording (on the feeder's streaming thread): it was
    /// released at `released` on the feeder's running time, plus the offset; `pass` is its
    /// segment's base (a new one: a new pass of `--loop`).
    private func hand(_ buffer: Buffer, released: UInt64?, pass: UInt64?) {
        guard let now = recording.clockTime else { return }
        let recordingBase = recording.baseTime
        let feederBase = feeder.baseTime
        let nowRunning = now >= recordingBase ? now - recordingBase : 0
        let frameDuration: UInt64? = if case .arrival(let duration) = stamping { duration } else { nil }
        let duration = buffer.duration ?? frameDuration ?? 0
        let (pts, shift) = state.withLock { state -> (UInt64?, UInt64?) in
            guard !state.stopped else { return (nil, nil) }
            var shift: UInt64?
            var due: UInt64?
            // Only a pass's first buffer is moved: within a pass the movie's own times hold.
            let newPass = pass != nil && state.pass != nil && pass != state.pass
            state.pass = pass ?? state.pass
            if let released {
                var at = released + state.offset
                if newPass, let expected = state.releasedUpTo, at + Self.slack < expected {
                    state.offset += expected - at
                    shift = state.offset
                    at = expected
                }
                state.releasedUpTo = at + duration
                due = at
            }
            var pts: UInt64
            switch stamping {
            case .arrival(let frameDuration):
                pts = nowRunning
                if let last = state.lastStamp, pts < last + frameDuration / 2 { pts = last + frameDuration }
            case .due:
                // The feeder's running time on the clock, as the recording's running time.
                guard let due else { return (nil, shift) }
                let clock = due + feederBase
                pts = clock >= recordingBase ? clock - recordingBase : 0
            }
            state.lastStamp = pts
            return (pts, shift)
        }
        if let shift { try? sink.set("ts-offset", Int(clamping: shift)) }
        guard let pts, let stamped = buffer.edited({ restamped in
            restamped.pts = pts
            restamped.dts = nil
            restamped.duration = duration > 0 ? duration : nil
        }) else { return }
        if target.push(stamped) == .ok { state.withLock { $0.pushed += 1 } }
    }
}

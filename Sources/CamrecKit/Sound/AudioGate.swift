import FoundationEssentials
import GStreamer

/// The sound branch's gate, after `audiorate`: it lets through the sound that belongs
/// with the movie's frames (`SoundWindow`). The recording branch's gate tells it where
/// the movie starts and ends. Sound can reach it before the first frame has reached the
/// recording branch's gate (frames take longer to arrive: decoding), so a buffer whose
/// place is not known yet waits for it here, on the sound branch's own streaming thread
/// (its queue holds what arrives meanwhile); `release()` ends every wait when the run stops.
final class AudioGate: Sendable {
    /// Reached only through the monitor: the sound's streaming thread waits on it for the
    /// movie's start, the stop for the sound to be complete.
    private let state: Monitor<State>

    private struct State {
        var window: SoundWindow
        var released = false
        var complete = false
        var passed: UInt64 = 0
        /// The first sound buffer's timestamp: frames before it cannot start the movie.
        var firstSound: UInt64?
        /// When a frame first asked to start the movie while no sound had come yet.
        var firstAsked: ContinuousClock.Instant?
        var gaveUp = false
    }

    /// How long frames wait for the sound source's first sound before the movie starts
    /// without sound (a sound server takes up to about a second to start a stream).
    static let soundStartTimeout: Duration = .seconds(5)

    /// Whether the movie may start with a frame at `pts`.
    enum Start: Equatable {
        /// Yes: sound is there from this frame on (or the wait for it is over).
        case go
        /// Not yet: the frame is before the sound's first buffer, or no sound has come yet.
        case hold
        /// Yes, without sound: none came within `soundStartTimeout` (reported once).
        case goWithoutSound
    }

    /// Decides whether a frame at `pts` may be the movie's first: the sound and the
    /// picture start together, so the movie starts with the first frame at or after the
    /// first sound (a sound source takes longer to start than a camera).
    func mayStart(at pts: UInt64, now: ContinuousClock.Instant = .now) -> Start {
        // No wait depends on what this changes: a sound buffer that waits has come, and
        // once one has, the gate no longer gives up on sound.
        state.withLock { state in
            if state.gaveUp || state.released { return .go }
            if let firstSound = state.firstSound { return pts >= firstSound ? .go : .hold }
            let asked = state.firstAsked ?? now
            state.firstAsked = asked
            guard now - asked >= Self.soundStartTimeout else { return .hold }
            state.gaveUp = true
            return .goWithoutSound
        }
    }

    /// A gate for a movie of `length` (whole frames, ns; nil: until stopped).
    init(length: UInt64?) {
        state = Monitor(State(window: SoundWindow(length: length)))
    }

    /// The movie's first frame has timestamp `pts` (only the first call counts).
    func videoStarted(at pts: UInt64) {
        state.withLockWaking { state in
            guard state.window.start == nil else { return }
            state.window.start = pts
        }
    }

    /// Whether the first frame is known.
    var hasStarted: Bool { state.withLock { $0.window.start != nil } }

    /// The movie's last frame ends at `end` (only the first call counts): sound from
    /// there on is dropped.
    func close(at end: UInt64) {
        state.withLockWaking { state in
            guard state.window.end == nil else { return }
            state.window.end = end
        }
    }

    /// What becomes of one sound buffer.
    enum Admission: Equatable {
        /// It goes into the movie whole.
        case pass
        /// It does not.
        case drop
        /// Only its sound from `lowerBound` to `upperBound` (ns) goes in: it straddles
        /// the movie's start or end.
        case part(Range<UInt64>)
    }

    /// Decides for one sound buffer; may wait (bounded by `release()`) until the first frame is known.
    func admit(pts: UInt64?, duration: UInt64?) -> Admission {
        guard let pts else { return .drop }
        let duration = duration ?? 0
        let gaveUp = state.withLock { state in
            if state.gaveUp { return true }
            if state.firstSound == nil { state.firstSound = pts }
            return false
        }
        if gaveUp { return .drop }
        // Only the first frame's arrival (`videoStarted`) or `release()` ends a `.wait`; both wake.
        let admission = state.wait(until: { $0.released || $0.window.decide(pts: pts, duration: duration) != .wait }) {
            state, _ -> Admission? in
            switch state.window.decide(pts: pts, duration: duration) {
            case .wait, .before:
                return .drop   // `.wait`: released before the movie started
            case .pass:
                state.passed += duration
                return .pass
            case .part(let kept):
                state.passed += kept.upperBound - kept.lowerBound
                return .part(kept)
            case .after:
                return nil
            }
        }
        if let admission { return admission }
        // Past the movie's end: the sound is complete, which `waitUntilComplete` waits for.
        state.withLockWaking { $0.complete = true }
        return .drop
    }

    /// Whether sound past the movie's end has arrived: the sound is complete.
    var isComplete: Bool { state.withLock { $0.complete } }

    /// Waits until sound past the movie's end has arrived (so the sound up to the end has
    /// all passed), at most `seconds`; true when it did.
    func waitUntilComplete(seconds: Double) -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        return state.wait(until: { $0.complete || $0.released }, deadline: deadline) { state, _ in state.complete }
    }

    /// Ends every wait: the run is stopping (or the sound source failed).
    func release() {
        state.withLockWaking { $0.released = true }
    }

    /// Seconds of sound let through.
    var passedSeconds: Double { state.withLock { Double($0.passed) / 1e9 } }
}

import FoundationEssentials
import GStreamer

/// The sound branch's gate, after `audiorate`: it lets through the sound that belongs
/// with the movie's frames (`SoundWindow`). The recording branch's gate tells it where
/// the movie starts and ends. Sound can reach it before the first frame has reached the
/// recording branch's gate (frames take longer to arrive: decoding), so a buffer whose
/// place is not known yet waits for it here, on the sound branch's own streaming thread
/// (its queue holds what arrives meanwhile); `release()` ends every wait when the run stops.
// `@unchecked`: its state is guarded by `condition`'s lock, which the sound's streaming
// thread waits on for the movie's start (a `Mutex` has no condition to wait on).
final class AudioGate: @unchecked Sendable {
    private let condition = ThreadCondition()
    // Guarded by `condition`.
    private var window: SoundWindow
    private var released = false
    private var complete = false
    private var passed: UInt64 = 0
    /// The first sound buffer's timestamp: frames before it cannot start the movie.
    private var firstSound: UInt64?
    /// When a frame first asked to start the movie while no sound had come yet.
    private var firstAsked: ContinuousClock.Instant?
    private var gaveUp = false

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
        condition.withLock {
            if gaveUp || released { return .go }
            if let firstSound { return pts >= firstSound ? .go : .hold }
            let asked = firstAsked ?? now
            firstAsked = asked
            guard now - asked >= Self.soundStartTimeout else { return .hold }
            gaveUp = true
            condition.broadcast()
            return .goWithoutSound
        }
    }

    /// A gate for a movie of `length` (whole frames, ns; nil: until stopped).
    init(length: UInt64?) {
        window = SoundWindow(length: length)
    }

    /// The movie's first frame has timestamp `pts` (only the first call counts).
    func videoStarted(at pts: UInt64) {
        condition.withLock {
            guard window.start == nil else { return }
            window.start = pts
            condition.broadcast()
        }
    }

    /// Whether the first frame is known.
    var hasStarted: Bool { condition.withLock { window.start != nil } }

    /// The movie's last frame ends at `end` (only the first call counts): sound from
    /// there on is dropped.
    func close(at end: UInt64) {
        condition.withLock {
            guard window.end == nil else { return }
            window.end = end
            condition.broadcast()
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
        return condition.withLock {
            if gaveUp { return .drop }
            if firstSound == nil { firstSound = pts }
            while true {
                switch window.decide(pts: pts, duration: duration ?? 0) {
                case .wait:
                    if released { return .drop }
                    condition.wait(seconds: 0.1)
                case .before:
                    return .drop
                case .pass:
                    passed += duration ?? 0
                    return .pass
                case .part(let kept):
                    passed += kept.upperBound - kept.lowerBound
                    return .part(kept)
                case .after:
                    if !complete {
                        complete = true
                        condition.broadcast()
                    }
                    return .drop
                }
            }
        }
    }

    /// Whether sound past the movie's end has arrived: the sound is complete.
    var isComplete: Bool { condition.withLock { complete } }

    /// Waits until sound past the movie's end has arrived (so the sound up to the end has
    /// all passed), at most `seconds`; true when it did.
    func waitUntilComplete(seconds: Double) -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        return condition.withLock {
            while !complete, !released {
                let left = deadline - ContinuousClock.now
                guard left > .zero else { return false }
                condition.wait(seconds: Double(left.components.attoseconds) / 1e18 + Double(left.components.seconds))
            }
            return complete
        }
    }

    /// Ends every wait: the run is stopping (or the sound source failed).
    func release() {
        condition.withLock {
            released = true
            condition.broadcast()
        }
    }

    /// Seconds of sound let through.
    var passedSeconds: Double { condition.withLock { Double(passed) / 1e9 } }
}

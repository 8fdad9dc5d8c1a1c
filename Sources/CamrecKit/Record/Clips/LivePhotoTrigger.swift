import FoundationEssentials

/// A Live Photo (`--live-photo`, `ctl clip --still`): a still and the clip around it, on
/// the same frame. The still is taken as any still is (the newest frame of the stills
/// branch); as soon as its frame is chosen, the clip's trigger is placed on that frame
/// (its camera timestamp moved onto the clips' timeline), and once the still is written,
/// it is paired with the clip.
enum LivePhotoTrigger {
    /// Triggers a clip at the frame of a new still; waits (at most 10 s) for the frame to
    /// be chosen. Without a still (none could be taken), a plain trigger.
    static func trigger(_ recorder: ClipRecorder, stills: StillTaker, gate: FrameGate,
                        after: TimeSpec?) -> Result<ClipRecorder.TriggerOutcome, CamrecError> {
        let outcome = Outcome()
        let queued = stills.request(.clip, completion: { result in
            if case .success(.started(_, let number))? = outcome.value {
                recorder.stillTaken(forClip: number, result)
            }
            outcome.finish()
        }, onFrame: { pts in
            // The camera's timestamps and the clips' running times differ by a constant
            // (the picture's delay for AAC priming): the movie's first frame in both.
            var time: UInt64?
            if let first = gate.firstFramePTS, let clipFirst = recorder.firstFrameTime {
                time = UInt64(max(0, Int64(bitPattern: pts) + Int64(bitPattern: clipFirst) - Int64(bitPattern: first)))
            }
            outcome.set(recorder.trigger(at: time, after: after, withStill: true))
        })
        guard queued, let result = outcome.wait(seconds: 10) else { return recorder.trigger(after: after) }
        return result
    }

    /// The trigger's outcome, handed from the stills thread to the caller.
    private final class Outcome: Sendable {
        private struct Handed {
            var result: Result<ClipRecorder.TriggerOutcome, CamrecError>?
            var done = false
        }
        private let handed = Monitor(Handed())

        func set(_ value: Result<ClipRecorder.TriggerOutcome, CamrecError>) {
            handed.withLockWaking { $0.result = value }
        }

        /// The still is written (or failed): no outcome will come if none has.
        func finish() {
            handed.withLockWaking { $0.done = true }
        }

        var value: Result<ClipRecorder.TriggerOutcome, CamrecError>? { handed.withLock { $0.result } }

        /// The outcome once set; nil when the still ended without one or `seconds` passed.
        func wait(seconds: Double) -> Result<ClipRecorder.TriggerOutcome, CamrecError>? {
            let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
            return handed.wait(until: { $0.result != nil || $0.done }, deadline: deadline) { handed, _ in handed.result }
        }
    }
}

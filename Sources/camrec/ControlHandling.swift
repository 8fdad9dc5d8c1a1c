import CamrecKit
import Dispatch
import Synchronization

/// What a recording does for each control-socket command.
enum ControlHandling {
    static func answer(_ command: ControlCommand, recorder: Recorder) -> String {
        switch command {
        case .set:
            // The server hands `set` to the camera's controls; it never comes here.
            return ControlReply.error("this recorder cannot set camera controls")
        case .clip:
            // The server hands `clip` to `clip(_:recorder:)`; it never comes here.
            return clip(nil, recorder: recorder)
        case .stop:
            recorder.requestStop(.control)
            return ControlReply.ok
        case .split:
            guard recorder.config.segments != nil else {
                return ControlReply.error("not recording in segments: start camrec with --segment T (or --segment none to cut only on request)")
            }
            guard recorder.requestSplit() else { return ControlReply.error("the recording is not running") }
            return ControlReply.ok
        case .status:
            guard let status = recorder.status() else { return ControlReply.error("the recording is not running") }
            return ControlReply.success(status)
        case .still:
            let done = DispatchSemaphore(value: 0)
            let outcome = OutcomeBox()
            let queued = recorder.requestStill(.control) { result in
                outcome.set(result)
                done.signal()
            }
            guard queued else { return ControlReply.error("the recording is not running") }
            guard done.wait(timeout: .now() + 10) == .success, let result = outcome.get() else {
                return ControlReply.error("the still is taking longer than 10 s")
            }
            switch result {
            case .success(let file): return ControlReply.success(file)
            case .failure(let error): return ControlReply.error(error.message)
            }
        }
    }
}

extension ControlHandling {
    /// `clip [--after T] [--still]`: asks for an event clip (with `--still`, a Live Photo).
    static func clip(_ argument: String?, recorder: Recorder) -> String {
        guard let (after, still) = clipArguments(argument) else {
            return ControlReply.error("clip takes --after T and --still (e.g. clip --after 20s --still)")
        }
        guard recorder.config.clips != nil else {
            return ControlReply.error("this recording makes no clips: start camrec with --pre-roll T or --post-roll T")
        }
        switch recorder.requestClip(after: after, still: still) {
        case nil: return ControlReply.error("the recording is not running")
        case .success(let trigger)?: return ControlReply.success(trigger)
        case .failure(let error)?: return ControlReply.error(error.message)
        }
    }
}

extension ControlHandling {
    /// `clip`'s arguments: `--after T` (nil: `--post-roll`) and `--still`; nil when malformed.
    static func clipArguments(_ argument: String?) -> (after: TimeSpec?, still: Bool)? {
        var after: TimeSpec?
        var still = false
        var words = (argument ?? "").split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        while let word = words.first {
            words.removeFirst()
            if word == "--still" {
                still = true
            } else if word == "--after", let text = words.first, let value = try? TimeSpec.parse(text), value.nanoseconds >= 0 {
                words.removeFirst()
                after = value
            } else {
                return nil
            }
        }
        return (after, still)
    }
}

/// Hands a still's outcome from the stills thread to the control thread.
final class OutcomeBox: Sendable {
    private let value = Mutex<Result<ResultFile, CamrecError>?>(nil)
    func set(_ result: Result<ResultFile, CamrecError>) { value.withLock { $0 = result } }
    func get() -> Result<ResultFile, CamrecError>? { value.withLock { $0 } }
}

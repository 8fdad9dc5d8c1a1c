import Dispatch

/// What a recording does for each control-socket command, SIGUSR1/SIGUSR2 and the keys,
/// for one camera or several: every command goes to every camera; with several, replies
/// keep the first camera's fields and add `cameras`, one entry per camera.
public enum ControlAnswers {
    /// How long `ctl still` waits for a still.
    static let stillTimeout: DispatchTimeInterval = .seconds(10)

    /// The reply to `command` (`set` and `clip` have handlers of their own; see
    /// ``clip(_:run:)`` and `PreparedControls.setReply`).
    public static func answer(_ command: ControlCommand, run: some ControlledRun) -> String {
        // Between a schedule's windows only stop has something to do.
        if let idle = run.idleReason, command != .stop { return ControlReply.error(idle) }
        switch command {
        case .set:
            // The server hands `set` to the cameras' controls; it never comes here.
            return ControlReply.error("set needs NAME=VALUE and a camera with controls, e.g. set brightness=10")
        case .clip:
            return clip(nil, run: run)
        case .stop:
            run.requestStop(.control, requests: 1)
            return ControlReply.ok
        case .split:
            // Several cameras: every camera's gate cuts at the first frame it captured at or after one instant.
            guard run.cameraRecorders.first?.config.segments != nil else {
                return ControlReply.error("not recording in segments: start camrec with --segment T (or --segment none to cut only on request)")
            }
            guard run.splitNow() else { return ControlReply.error("the recording is not running") }
            return ControlReply.ok
        case .status:
            guard let status = run.status() else { return ControlReply.error("the recording is not running") }
            return ControlReply.success(status)
        case .still:
            return still(run)
        case .text:
            return text(run)
        }
    }

    /// `clip [--after T] [--still]`: asks for an event clip (with `--still`, a Live Photo);
    /// several cameras: one per camera, at the same instant.
    public static func clip(_ argument: String?, run: some ControlledRun) -> String {
        if let idle = run.idleReason { return ControlReply.error(idle) }
        guard let (after, still) = clipArguments(argument) else {
            return ControlReply.error("clip takes --after T and --still (e.g. clip --after 20s --still)")
        }
        if let missing = noClips(run) { return ControlReply.error("this recording makes no clips: " + missing) }
        switch run.clipNow(after: after, still: still) {
        case nil: return ControlReply.error("the recording is not running")
        case .success(let trigger)?: return ControlReply.success(trigger)
        case .failure(let error)?: return ControlReply.error(error.message)
        }
    }

    /// A clip asked for by SIGUSR2 or the key c: nil, or the line to say why none is made.
    public static func clipAsked(_ run: some ControlledRun) -> String? {
        if let idle = run.idleReason { return "camrec: no clip: " + idle }
        if let missing = noClips(run) { return "camrec: no clip: " + missing }
        switch run.clipNow(after: nil, still: false) {
        case nil: return "camrec: no clip: the recording is not running"
        case .failure(let error)?: return "camrec: \(error.message)"
        case .success?: return nil
        }
    }

    /// A still asked for by SIGUSR1 or the key s (every camera its newest frame): nil, or
    /// the line to say why none is taken.
    public static func stillAsked(_ run: some ControlledRun, by trigger: StillTrigger) -> String? {
        if let idle = run.idleReason { return "camrec: no still: " + idle }
        let taken = run.cameraRecorders.map { $0.requestStill(trigger) }
        return taken.contains(true) ? nil : "camrec: no still: the recording is not running"
    }

    /// Why the run makes no clips, with what to do; nil when it makes them.
    private static func noClips(_ run: some ControlledRun) -> String? {
        guard let config = run.cameraRecorders.first?.config, config.clips == nil else { return nil }
        return "start camrec with --pre-roll T or --post-roll T"
    }

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

    /// `still`: one from every camera (each its newest frame), as SIGUSR1. One camera: the
    /// reply is its still; several: the first camera's still with `cameras`, every still written.
    private static func still(_ run: some ControlledRun) -> String {
        let recorders = run.cameraRecorders
        let answers: CameraAnswers<ResultFile> = askEveryCamera(
            recorders, timeout: stillTimeout, late: "the still is taking longer than 10 s"
        ) { recorder, done in recorder.requestStill(.control, completion: done) }
        guard answers.asked else { return ControlReply.error("the recording is not running") }
        let files = answers.values.map { camera, file in
            var file = file
            if recorders.count > 1 { file.device = recorders[camera].config.source.deviceName }
            return file
        }
        guard let first = files.first else { return ControlReply.error(answers.errors.joined(separator: "; ")) }
        guard recorders.count > 1 else { return ControlReply.success(first) }
        return ControlReply.success(CamerasReply(first: first, cameras: files))
    }
}

import CamrecKit
import Dispatch
import Synchronization

/// What a run of several cameras does for each control-socket command, SIGUSR2 and the
/// key c: every command goes to every camera (`MultiCameraRecorder`); replies keep the
/// one-camera fields (the first camera's) and add `cameras`, one entry per camera.
enum MultiCameraControl {
    static func answer(_ command: ControlCommand, run: MultiCameraRecorder) -> String {
        switch command {
        case .set:
            // The server hands `set` to `set(_:controls:devices:)`; it never comes here.
            return ControlReply.error("set needs NAME=VALUE, e.g. set brightness=10")
        case .clip:
            return clip(nil, run: run)
        case .stop:
            run.requestStop(.control)
            return ControlReply.ok
        case .split:
            // Every camera's gate cuts at the first frame it captured at or after one instant.
            guard run.recorders[0].config.segments != nil else {
                return ControlReply.error("not recording in segments: start camrec with --segment T (or --segment none to cut only on request)")
            }
            guard run.requestSplit() else { return ControlReply.error("the recording is not running") }
            return ControlReply.ok
        case .status:
            guard let status = run.status() else { return ControlReply.error("the recording is not running") }
            return ControlReply.success(status)
        case .still:
            return still(run)
        }
    }

    /// `set NAME=VALUE[,…]`: on every camera (`controls`, in `--device` order), checked
    /// against all before any is written; the reply is the first camera's controls, with
    /// `cameras`, every camera's. Put back at the end with the rest.
    static func set(_ text: String, controls: [PreparedControls?], devices: [String]) -> String {
        var cameras: [CameraControls] = []
        for (index, prepared) in controls.enumerated() {
            guard let prepared else {
                return ControlReply.error("camera \(index + 1) (\(devices[index])) has no controls (the test pattern): set needs cameras")
            }
            cameras.append(prepared.camera)
        }
        let names = devices.enumerated().map { "camera \($0.offset + 1) (\($0.element))" }
        switch CameraControls.set(text, on: cameras, names: names) {
        case .success(let applied):
            return ControlReply.success(SetReply(controls: applied.first ?? [],
                                                 cameras: zip(devices, applied).map { CameraSet(device: $0, controls: $1) }))
        case .failure(let error):
            return ControlReply.error(error.message)
        }
    }

    private struct SetReply: Encodable {
        let controls: [AppliedControl]
        let cameras: [CameraSet]
    }

    private struct CameraSet: Encodable {
        let device: String
        let controls: [AppliedControl]
    }

    /// `clip [--after T] [--still]`: one clip per camera, at the same instant.
    static func clip(_ argument: String?, run: MultiCameraRecorder) -> String {
        guard let (after, still) = ControlHandling.clipArguments(argument) else {
            return ControlReply.error("clip takes --after T and --still (e.g. clip --after 20s --still)")
        }
        guard run.recorders[0].config.clips != nil else {
            return ControlReply.error("this recording makes no clips: start camrec with --pre-roll T or --post-roll T")
        }
        switch run.requestClip(after: after, still: still) {
        case nil: return ControlReply.error("the recording is not running")
        case .success(let trigger)?: return ControlReply.success(trigger)
        case .failure(let error)?: return ControlReply.error(error.message)
        }
    }

    /// A clip trigger from a signal or a key: a line when it cannot make one.
    static func clip(_ run: MultiCameraRecorder, console: Console) {
        guard run.recorders[0].config.clips != nil else {
            console.say("camrec: no clip: start camrec with --pre-roll T or --post-roll T to make clips")
            return
        }
        switch run.requestClip() {
        case nil: console.say("camrec: no clip: the recording is not running")
        case .failure(let error)?: console.say("camrec: \(error.message)")
        case .success?: break
        }
    }

    /// `still`: one from every camera (each its newest frame), as SIGUSR1; the reply is
    /// the first camera's still with `cameras`, every still written.
    private static func still(_ run: MultiCameraRecorder) -> String {
        let outcomes = run.recorders.map { recorder -> (OutcomeBox, DispatchSemaphore)? in
            let (outcome, done) = (OutcomeBox(), DispatchSemaphore(value: 0))
            let queued = recorder.requestStill(.control) { result in
                outcome.set(result)
                done.signal()
            }
            return queued ? (outcome, done) : nil
        }
        guard outcomes.contains(where: { $0 != nil }) else { return ControlReply.error("the recording is not running") }
        var files: [ResultFile] = []
        var errors: [String] = []
        for (index, waiting) in outcomes.enumerated() {
            guard let (outcome, done) = waiting else { continue }
            let name = "camera \(index + 1) (\(run.recorders[index].config.source.deviceName))"
            guard done.wait(timeout: .now() + 10) == .success, let result = outcome.get() else {
                errors.append(name + ": the still is taking longer than 10 s")
                continue
            }
            switch result {
            case .success(var file):
                file.device = run.recorders[index].config.source.deviceName
                files.append(file)
            case .failure(let error): errors.append(name + ": " + error.message)
            }
        }
        guard let first = files.first else { return ControlReply.error(errors.joined(separator: "; ")) }
        return ControlReply.success(StillsReply(first: first, cameras: files))
    }

    /// The first camera's still, its fields at the top level, and every camera's in `cameras`.
    private struct StillsReply: Encodable {
        let first: ResultFile
        let cameras: [ResultFile]

        enum Key: String, CodingKey { case cameras }

        func encode(to encoder: any Encoder) throws {
            try first.encode(to: encoder)
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(cameras, forKey: .cameras)
        }
    }
}

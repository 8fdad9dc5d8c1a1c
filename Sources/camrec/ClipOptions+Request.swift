import ArgumentParsing
import CamrecCLI
import CamrecKit

/// `ClipOptions` typed: the options as given, turned into CamrecKit's request.
extension ClipOptions {
    /// The clip options as given.
    static func request(_ parsed: ParsedArguments) -> ClipRequest {
        var request = ClipRequest(preRoll: parsed.value("--pre-roll"), postRoll: parsed.value("--post-roll"), maxClip: parsed.value("--max-clip"),
                    pattern: parsed.value("--clips"), standby: parsed.flag("--standby"), onMotion: parsed.flag("--on-motion"),
                    motionSensitivity: parsed.value("--motion-sensitivity"), motionMask: parsed.value("--motion-mask"),
                    livePhoto: parsed.flag("--live-photo"))
        request.onSound = parsed.value("--on-sound")
        request.start = parsed.value("--clip-start")
        return request
    }
}

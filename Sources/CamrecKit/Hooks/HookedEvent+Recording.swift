// Here rather than in the Hooks module: the recording's events are above it.
extension HookedEvent {
    /// The hooked event `event` is, seen at `time` (ms since 1970) in a run of `camera`
    /// (one camera's device; several cameras' events name their own); nil for the events
    /// `--on-event` does not run for.
    init?(_ event: RecordingEvent, time: Int64, camera: String?, series: String?) {
        let made: (name: String, camera: String?, clip: String?, line: String?)
        switch event {
        case .motion(let line):
            made = ("motion", line.device ?? camera, nil, Console.jsonLine(line, type: "motion"))
        case .sound(let line):
            made = ("sound", camera, nil, Console.jsonLine(line, type: "sound"))
        case .clipStarted(let line):
            made = ("clip-started", line.device ?? camera, line.path, Console.jsonLine(line, type: "clip-started"))
        case .cameraLost(let message, let which):
            made = ("camera-lost", which?.device ?? camera, nil,
                    Console.jsonLine(CameraLostLine(message: message, device: which?.device, camera: which?.index), type: "camera-lost"))
        case .cameraBack(let device, let gap, let which):
            made = ("camera-back", which?.device ?? camera, nil,
                    Console.jsonLine(CameraBackLine(device: device, gap: gap, camera: which?.index), type: "camera-back"))
        case .diskLow(let line):
            made = ("disk-low", line.device ?? camera, nil, Console.jsonLine(line, type: "disk-low"))
        default:
            return nil
        }
        self.init(name: made.name, time: time, camera: made.camera, clip: made.clip, series: series, line: made.line ?? "")
    }
}

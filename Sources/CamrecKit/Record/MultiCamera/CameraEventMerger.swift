import Synchronization

/// Turns the events of several cameras' recorders into the events of one run: one
/// `started` line once every camera runs (listing them all), progress and `stopping`
/// from the first camera only, files marked with their camera's device, warnings
/// prefixed with the camera they are about. Forwards one event at a time.
final class CameraEventMerger: Sendable {
    private let devices: [String]
    private let events: @Sendable (RecordingEvent) -> Void
    private struct State {
        var starts: [RecordingStart?]
        var stopping = false
    }
    private let state: Mutex<State>

    init(devices: [String], events: @escaping @Sendable (RecordingEvent) -> Void) {
        self.devices = devices
        self.events = events
        state = Mutex(State(starts: Array(repeating: nil, count: devices.count)))
    }

    /// Camera `camera`'s (0-based) event.
    func forward(_ event: RecordingEvent, camera: Int) {
        state.withLock { state in
            guard let merged = merge(event, camera: camera, state: &state) else { return }
            events(merged)
        }
    }

    /// An event of the run, about no one camera, forwarded as it is.
    func note(_ event: RecordingEvent) {
        state.withLock { _ in events(event) }
    }

    private func merge(_ event: RecordingEvent, camera: Int, state: inout State) -> RecordingEvent? {
        switch event {
        case .started(let start):
            state.starts[camera] = start
            let starts = state.starts.compactMap { $0 }
            guard starts.count == devices.count, var first = starts.first else { return nil }
            first.cameras = starts.enumerated().map { StartedCamera(index: $0.offset + 1, start: $0.element) }
            return .started(first)
        case .progress:
            return camera == 0 ? event : nil
        case .stopping(let reason):
            // One camera's loss ends only its movie (its warning says so): the run's own
            // stop is still to come.
            guard !state.stopping, reason != .cameraLost else { return nil }
            state.stopping = true
            return event
        case .warning(let text):
            return .warning(name(camera) + ": " + text)
        case .cameraLost(let text, _):
            return .cameraLost(name(camera) + ": " + text, camera: runCamera(camera))
        case .cameraBack(let device, let gap, _):
            return .cameraBack(device: device, gap: gap, camera: runCamera(camera))
        case .deleted(var file):
            if devices.indices.contains(camera) { file.device = devices[camera] }
            return .deleted(file)
        case .still(let file):
            return .still(marked(file, camera: camera))
        case .segment(let file):
            return .segment(marked(file, camera: camera))
        case .clip(let file):
            return .clip(marked(file, camera: camera))
        case .text, .schedule:
            return event
        case .motion(var line):
            if devices.indices.contains(camera) { line.device = devices[camera] }
            return .motion(line)
        case .sound:
            // The run's one sound: about no one camera.
            return event
        case .clipStarted(var line):
            if devices.indices.contains(camera) { line.device = devices[camera] }
            return .clipStarted(line)
        case .diskLow(var line):
            if devices.indices.contains(camera) { line.device = devices[camera] }
            return .diskLow(line)
        case .settled(var outcome):
            // Each camera settles in its own time: its line names it.
            outcome.device = runCamera(camera)?.device
            outcome.camera = runCamera(camera)?.index
            return .settled(outcome)
        }
    }

    /// "camera 2 (/dev/video1)".
    func name(_ camera: Int) -> String {
        "camera \(camera + 1) (\(devices.indices.contains(camera) ? devices[camera] : "?"))"
    }

    private func runCamera(_ camera: Int) -> RunCamera? {
        devices.indices.contains(camera) ? RunCamera(index: camera + 1, device: devices[camera]) : nil
    }

    private func marked(_ file: ResultFile, camera: Int) -> ResultFile {
        var file = file
        if devices.indices.contains(camera) { file.device = devices[camera] }
        return file
    }

    /// The run's result from each camera's outcome, in order: every camera's movies
    /// first, then the other files. A failure before any movie was made is thrown
    /// (the first camera's that failed); later ones end the run as an error, with
    /// what the others made.
    func merge(_ outcomes: [Result<RecordingResult, CamrecError>]) throws(CamrecError) -> RecordingResult {
        var results: [(Int, RecordingResult)] = []
        var failures: [(Int, CamrecError)] = []
        for (camera, outcome) in outcomes.enumerated() {
            switch outcome {
            case .success(let result): results.append((camera, result))
            case .failure(let error): failures.append((camera, error))
            }
        }
        let files = results.flatMap { camera, result in result.files.map { marked($0, camera: camera) } }
        if let (camera, error) = failures.first, !files.contains(where: { $0.kind == "movie" }) {
            // The error's own message names the device when it is about the camera.
            let message = error.message.contains(devices[camera]) ? error.message : name(camera) + ": " + error.message
            throw CamrecError(error.kind, message)
        }
        let movies = files.filter { $0.kind == "movie" }
        var merged = RecordingResult(
            reason: Self.reason(results.map(\.1.reason), failed: !failures.isEmpty),
            files: movies + files.filter { $0.kind != "movie" },
            droppedFrames: results.map(\.1.droppedFrames).reduce(0, +),
            corruptFrames: results.map(\.1.corruptFrames).reduce(0, +))
        let messages = results.compactMap { camera, result in result.message.map { name(camera) + ": " + $0 } }
            + failures.map { camera, error in name(camera) + ": " + error.message }
        merged.message = messages.isEmpty ? nil : messages.joined(separator: "; ")
        merged.keyframeInterval = results.compactMap(\.1.keyframeInterval).max()
        let shed = results.compactMap(\.1.shedFrames)
        merged.shedFrames = shed.isEmpty ? nil : shed.reduce(0, +)
        // The sound goes with the first camera's movie.
        merged.droppedAudioMs = results.first { $0.0 == 0 }?.1.droppedAudioMs
        merged.audioClockPPM = results.first { $0.0 == 0 }?.1.audioClockPPM
        let lost = results.flatMap { $0.1.lostMovies ?? [] }
        merged.lostMovies = lost.isEmpty ? nil : lost
        // --timelapse: the frames kept by every camera.
        if var timelapse = results.first?.1.timelapse {
            timelapse.framesKept = results.compactMap(\.1.timelapse?.framesKept).reduce(0, +)
            merged.timelapse = timelapse
        }
        return merged
    }

    /// The run's stop reason: the most serious of the cameras' (an error, an abort, a
    /// full disk, a lost camera), else the first camera's.
    static func reason(_ reasons: [StopReason], failed: Bool) -> StopReason {
        if failed { return .error }
        for serious in [StopReason.error, .aborted, .diskFull, .cameraLost] where reasons.contains(serious) {
            return serious
        }
        return reasons.first ?? .error
    }
}

import FoundationEssentials

/// The live outputs of a recording, for every topology alike: the preview windows
/// (`--preview`, opened before the cameras, so that without a display nothing is touched)
/// and the RTSP server (`--serve`, listening before the pipelines start, so that a taken
/// port stops camrec there). Block `SignalWatcher.recordingSignals` before opening either:
/// their threads must not take a stop signal.
public enum LiveOutputs {
    /// `windows` preview windows (one per camera's movie, or one), as `preview` asks; empty
    /// without `--preview` (or, with `--preview auto`, without a display: one warning).
    public static func openPreviews(_ preview: PreviewRequest, windows count: Int, printer: RecordingPrinter,
                                    console: Console) throws(CamrecError) -> [PreviewWindow] {
        guard count > 0 else { return [] }
        let environment = ProcessInfo.processInfo.environment
        guard let first = try preview.open(environment: environment, warn: { printer.show(.warning($0)) }) else { return [] }
        var windows = [first]
        do throws(CamrecError) {
            while windows.count < count {
                // The display took the first window: one that fails now is an error either way.
                guard let next = try preview.open(environment: environment, warn: { printer.show(.warning($0)) }) else {
                    throw CamrecError(.usage, "--preview: camera \(windows.count + 1)'s window could not be opened")
                }
                windows.append(next)
            }
        } catch {
            for window in windows { window.close() }
            throw error
        }
        let stops = preview.stops
        if count == 1 {
            console.say("camrec: preview: a window (\(first.sink)) shows the camera; closing it \(stops ? "stops" : "does not stop") the recording")
        } else {
            console.say("camrec: preview: a window (\(first.sink)) per camera shows it; closing one \(stops ? "stops every camera's" : "does not stop the") recording")
        }
        return windows
    }

    /// The live streams `setup` asks for, listening: one server, with a mount per camera
    /// (`/camera1`, `/camera2`, …) for several cameras in movies of their own; empty
    /// without `--serve`.
    public static func startServers(for setup: RunSetup, console: Console) throws(CamrecError) -> [LiveStreamServer] {
        let configs = setup.recorded
        guard let settings = configs.first?.serve else { return [] }
        guard configs.count > 1 else {
            let config = configs[0]
            let server = try LiveStreamServer.start(settings, codec: config.encoder.codec, sound: config.audio?.codec)
            let others = server.urls.dropFirst()
            let also = others.isEmpty ? "" : "; also at " + others.joined(separator: ", ")
            console.say("camrec: serving the live stream at \(server.url) (watch it with ffplay \(server.url), or VLC\(also))")
            return [server]
        }
        let servers = try LiveStreamServer.startCameras(settings, streams: configs.map { ($0.encoder.codec, $0.audio?.codec) })
        for (index, server) in servers.enumerated() {
            console.say("camrec: serving camera \(index + 1)'s live stream at \(server.url) (watch it with ffplay \(server.url), or VLC)")
        }
        return servers
    }
}

import CamrecKit
import FoundationEssentials

/// The live outputs of a recording, for one camera or a canvas alike: the preview window
/// (`--preview`, opened before the camera, so that without a display nothing is touched)
/// and the RTSP server (`--serve`, listening before the pipeline starts, so that a taken
/// port stops camrec there). Block `SignalWatcher.recordingSignals` before opening either:
/// their threads must not take a stop signal.
enum LiveOutputs {
    /// The preview window `options` ask for; nil without `--preview` (or, with
    /// `--preview auto`, without a display).
    static func openPreview(_ options: RecordOptions, printer: RecordingPrinter, console: Console) throws(CamrecError) -> PreviewWindow? {
        let preview = try options.preview.open(environment: ProcessInfo.processInfo.environment) { warning in
            printer.show(.warning(warning))
        }
        if let preview {
            console.say("camrec: preview: a window (\(preview.sink)) shows the camera; closing it \(options.preview.stops ? "stops" : "does not stop") the recording")
        }
        return preview
    }

    /// Several cameras in movies of their own: a window per camera, in `--device` order,
    /// opened before the cameras' pipelines; empty without `--preview` (or, with
    /// `--preview auto`, without a display: one warning).
    static func openPreviews(_ options: RecordOptions, cameras: Int, printer: RecordingPrinter,
                             console: Console) throws(CamrecError) -> [PreviewWindow] {
        let environment = ProcessInfo.processInfo.environment
        guard let first = try options.preview.open(environment: environment, warn: { printer.show(.warning($0)) }) else { return [] }
        var windows = [first]
        do throws(CamrecError) {
            while windows.count < cameras {
                // The display took the first window: one that fails now is an error either way.
                guard let next = try options.preview.open(environment: environment, warn: { printer.show(.warning($0)) }) else {
                    throw CamrecError(.usage, "--preview: camera \(windows.count + 1)'s window could not be opened")
                }
                windows.append(next)
            }
        } catch {
            for window in windows { window.close() }
            throw error
        }
        console.say("camrec: preview: a window (\(first.sink)) per camera shows it; closing one \(options.preview.stops ? "stops every camera's" : "does not stop the") recording")
        return windows
    }

    /// The live stream `config` asks for, listening; nil without `--serve`.
    static func startServer(for config: RecordConfig, console: Console) throws(CamrecError) -> LiveStreamServer? {
        guard let settings = config.serve else { return nil }
        let server = try LiveStreamServer.start(settings, codec: config.encoder.codec, sound: config.audio?.codec)
        let others = server.urls.dropFirst()
        let also = others.isEmpty ? "" : "; also at " + others.joined(separator: ", ")
        console.say("camrec: serving the live stream at \(server.url) (watch it with ffplay \(server.url), or VLC\(also))")
        return server
    }

    /// Several cameras in movies of their own: one server, a mount per camera
    /// (`/camera1`, `/camera2`, …), listening; empty without `--serve`.
    static func startServers(for configs: [RecordConfig], console: Console) throws(CamrecError) -> [LiveStreamServer] {
        guard let settings = configs.first?.serve else { return [] }
        let servers = try LiveStreamServer.startCameras(settings, streams: configs.map { ($0.encoder.codec, $0.audio?.codec) })
        for (index, server) in servers.enumerated() {
            console.say("camrec: serving camera \(index + 1)'s live stream at \(server.url) (watch it with ffplay \(server.url), or VLC)")
        }
        return servers
    }
}

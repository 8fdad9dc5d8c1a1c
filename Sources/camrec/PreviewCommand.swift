import ArgumentParsing
import CamrecKit
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// `camrec preview [options]`: the camera in a window, nothing recorded.
enum PreviewCommand: Subcommand {
    static let spec = CommandSpec(
        name: "camrec preview",
        abstract: "Show the camera in a window, recording nothing.",
        usage: "camrec preview [options]",
        options: CameraOptions.specs + PictureControlOptions.specs + PictureOptions.specs + [
            OptionSpec(["--stills"], value: "PATTERN", help: "where the key s and SIGUSR1 put stills: a pattern with one counter (shots/img-%04d.jpg; its extension, .jpg, .jpeg or .png, picks the format) or a folder (default: preview-still-0001.jpg, … in the current folder); existing files are never replaced"),
            OptionSpec(["--still-format"], value: "FMT", help: "jpeg (default) or png; a --stills pattern's extension decides"),
            OptionSpec(["--still-quality"], value: "Q", help: "JPEG quality, 1-100 (default: 90)"),
            OptionSpec(["--json"], help: "print JSON lines on stdout: still, warning, result"),
            OptionSpec(["--quiet", "-q"], help: "print nothing on stderr but errors"),
        ],
        positionals: [],
        discussion: """
            The camera is chosen and set up exactly as for a recording (the same format
            choice, --set controls and overlays), so what the window shows is what camrec
            would record. The window shows PREVIEW in its corner; it drops frames it cannot
            show in time.

            In the window or on an interactive terminal, the key s takes a still (the newest
            frame at full size: an MJPEG camera's own JPEG unless the picture is changed)
            and q ends the preview; SIGUSR1 takes a still too. Closing the window, q, SIGINT, SIGTERM or
            SIGHUP end it (exit 0). It needs a display: with DISPLAY and WAYLAND_DISPLAY
            unset it stops before opening the camera (exit 64).

            \(PictureControlOptions.discussion)

            Exit codes are those of camrec record (see camrec --help).
            """
    )

    /// The preview command's options, typed.
    struct Options {
        var camera: CameraChoice
        var controls: ControlRequest
        var picture: PictureChoice
        var stills: StillSettings
    }

    static func validate(_ parsed: ParsedArguments) throws(UsageError) -> Options {
        let (format, quality) = try RecordOptions.stillFormat(parsed)
        let stills: StillSettings
        do {
            stills = try StillSettings.resolve(pattern: parsed.value("--stills"), format: format, quality: quality,
                                               every: nil, moviePath: "preview.mp4")
        } catch {
            throw UsageError(error.message)
        }
        return Options(camera: try CameraChoice(parsed), controls: try PictureControlOptions.request(parsed),
                       picture: try PictureChoice(parsed), stills: stills)
    }

    static func run(_ options: Options, console: Console) throws(CamrecError) -> ExitStatus {
        let picture = try options.picture.resolve()
        try options.stills.naming.checkDestination()
        // The window's pipeline starts threads: they must block the signals that the watcher
        // below takes, or a stop signal delivered to one of them would kill camrec.
        SignalWatcher.block(SignalWatcher.recordingSignals)
        // The window opens before the camera: without a display, nothing is touched.
        let environment = ProcessInfo.processInfo.environment
        let window: PreviewWindow
        do {
            window = try PreviewWindow.open(display: DisplayEnvironment(environment: environment),
                                            sink: environment["CAMREC_PREVIEW_SINK"].flatMap { $0.isEmpty ? nil : $0 })
        } catch {
            let what = error == .noDisplay ? "a display, and DISPLAY and WAYLAND_DISPLAY are unset" : "a window, and \(error.reason)"
            throw CamrecError(.usage, "camrec preview needs \(what): run it in a desktop session (or ssh -X)")
        }
        defer { window.close() }
        let resolution = try options.camera.resolve()
        let controls = try PreparedControls.prepare(options.controls, source: resolution.source)
        var config = PreviewConfig(source: resolution.source, size: resolution.size, rate: resolution.rate, stills: options.stills)
        config.picture = picture
        let printer = RecordingPrinter(console: console)
        for warning in resolution.warnings { printer.show(.warning(warning)) }
        let applied = try controls?.apply()
        for warning in applied?.warnings ?? [] { printer.show(.warning(warning)) }
        defer { for warning in controls?.finish() ?? [] { printer.show(.warning(warning)) } }
        let preview = LivePreview(config: config, window: window)
        SignalWatcher.startBatched(SignalWatcher.recordingSignals) { signals in
            for received in signals where received == SIGUSR1 { preview.requestStill(.signal) }
            if signals.contains(where: { $0 != SIGUSR1 && $0 != SIGUSR2 }) { preview.requestStop(.signal) }
        }
        let keys = KeyboardControl(onStill: { preview.requestStill(.key) }, onStop: { preview.requestStop(.control) })
        defer { keys.restore() }
        // The same keys in the window.
        window.onKey { key in
            switch key.lowercased() {
            case "s": preview.requestStill(.key)
            case "q", "escape": preview.requestStop(.control)
            default: break
            }
        }
        let from = resolution.source.deviceName == "test" ? "the test pattern" : resolution.source.deviceName
        console.say("camrec: preview of \(from) at \(resolution.size) \(resolution.rate) fps in a window (\(window.sink)); "
            + "nothing is recorded: s takes a still; q, Ctrl-C or closing the window ends it")
        let result = try preview.run { event in
            // Stills of a preview have no movie time: a line of their own, as camrec still's.
            guard case .still(let file) = event else { return printer.show(event) }
            console.emit(file, type: "still")
            console.say("camrec: still \(file.path) (\(humanBytes(file.bytes)))")
        }
        printer.show(result)
        return result.exitStatus
    }
}

import ArgumentParsing
import CamrecKit
#if canImport(Glibc)
import Glibc
#endif

/// `camrec still [options] OUTPUT.jpg`: takes a photo (or a series) without a movie.
enum StillCommand: Subcommand {
    static let spec = CommandSpec(
        name: "camrec still",
        abstract: "Take a photo from a camera, after its auto-exposure has settled.",
        usage: "camrec still [options] OUTPUT",
        options: CameraOptions.specs + PictureControlOptions.specs + PictureOptions.specs + [
            OptionSpec(["--count", "-n"], value: "N", help: "take N photos (default: 1)"),
            OptionSpec(["--interval", "-i"], value: "T", help: "time between photos of a series (default: 1s)"),
            OptionSpec(["--settle"], value: "T", help: "wait at most T for the brightness to settle before the first photo; 0 takes the first frame (default: 3s)"),
            OptionSpec(["--still-quality", "-Q"], value: "Q", help: "JPEG quality 1-100 (default: 90)"),
            OptionSpec(["--force", "-f"], help: "replace OUTPUT if it exists (a single photo)"),
            OptionSpec(["--json"], help: "print JSON lines on stdout: still, warning, result"),
            OptionSpec(["--quiet", "-q"], help: "print nothing on stderr but errors"),
        ],
        positionals: [PositionalSpec("OUTPUT", help: "the photo: .jpg, .jpeg or .png (the extension picks the format); with --count, NAME-0001.jpg, … or a pattern with %04d")],
        discussion: PictureControlOptions.discussion + "\n\nExit codes are those of camrec record (see camrec --help)."
    )

    /// The photo command's options, typed.
    struct Options {
        var camera: CameraChoice
        var count: Int
        var interval: TimeSpec
        var settle: TimeSpec
        var quality: Int
        var output: String
        var format: StillFormat
        var force: Bool
        var controls: ControlRequest
        var picture: PictureChoice
    }

    static func validate(_ parsed: ParsedArguments) throws(UsageError) -> Options {
        let quality = try parsed.value("--still-quality", quality) ?? StillFormat.defaultQuality
        guard let output = parsed.positional("OUTPUT") else {
            throw UsageError("missing OUTPUT: give the photo to write, e.g. camrec still photo.jpg")
        }
        guard let format = StillFormat(path: output, quality: quality) else {
            throw UsageError("cannot tell the format of '\(output)': end OUTPUT with \(StillFormat.extensionList)")
        }
        return Options(
            camera: try CameraChoice(parsed),
            count: try parsed.value("--count", positiveInteger) ?? 1,
            interval: try parsed.value("--interval") { (text: String) throws(ValueError) in try TimeSpec.parse(text) } ?? .seconds(1),
            settle: try parsed.value("--settle") { (text: String) throws(ValueError) in try TimeSpec.parse(text) } ?? .seconds(3),
            quality: quality, output: output, format: format, force: parsed.flag("--force"),
            controls: try stillControls(parsed),
            picture: try PictureChoice(parsed))
    }

    static func run(_ options: Options, console: Console) throws(CamrecError) -> ExitStatus {
        StandardStream.queueWrites()
        let (config, warnings) = try makeConfig(options)
        let controls = try PreparedControls.prepare(options.controls, source: config.source)
        SignalWatcher.block(SignalWatcher.recordingSignals)
        let camera = StillCamera(config: config)
        SignalWatcher.start(SignalWatcher.recordingSignals) { signal in
            if signal != SIGUSR1, signal != SIGUSR2 { camera.requestStop() }
        }
        let printer = RecordingPrinter(console: console)
        for warning in warnings + (try controls?.apply().warnings ?? []) { printer.show(.warning(warning)) }
        defer { for warning in controls?.finish() ?? [] { printer.show(.warning(warning)) } }
        let result = try camera.run { event in
            // A photo has no movie, so no "movie time": a line of its own.
            guard case .still(let file) = event else { return printer.show(event) }
            console.emit(file, type: "still")
            console.say("camrec: still \(file.path) (\(humanBytes(file.bytes)))")
        }
        printer.show(result)
        return result.exitStatus
    }

    /// The photos to take, and warnings about the camera chosen.
    /// Checks the destination and finds the camera (errors other than usage ones).
    private static func makeConfig(_ options: Options) throws(CamrecError) -> (StillConfig, warnings: [String]) {
        let (output, format) = (options.output, options.format)
        let picture = try options.picture.resolve()
        let target: StillOutput
        if options.count == 1 && !output.contains("%") {
            try StillNaming.checkFolder(of: output)
            try OutputFile.checkDestination(output, overwrite: options.force)
            target = .file(path: output, overwrite: options.force)
        } else {
            let (stem, ext) = OutputFile.split(output)
            let pattern = output.contains("%") ? output : stem + "-%04d" + ext
            let naming = try StillNaming.parse(pattern, moviePath: output, format: format)
            try naming.checkDestination()
            target = .series(naming)
        }
        let resolution = try options.camera.resolve()
        var config = StillConfig(source: resolution.source, size: resolution.size, rate: resolution.rate, format: format,
                                 output: target, count: options.count, interval: options.interval, settle: options.settle)
        config.picture = picture
        return (config, resolution.warnings)
    }

    /// A photo may take longer frames: auto-exposure's frame rate is left as it is.
    private static func stillControls(_ parsed: ParsedArguments) throws(UsageError) -> ControlRequest {
        var request = try PictureControlOptions.request(parsed)
        request.keepFrameRate = false
        return request
    }

    private static func positiveInteger(_ text: String) throws(ValueError) -> Int {
        guard let value = Int(text), value > 0, value <= 100_000 else {
            throw ValueError("invalid count '\(text)': use a whole number from 1")
        }
        return value
    }

    static func quality(_ text: String) throws(ValueError) -> Int {
        guard let value = Int(text), (1...100).contains(value) else {
            throw ValueError("invalid quality '\(text)': use a whole number from 1 to 100")
        }
        return value
    }
}

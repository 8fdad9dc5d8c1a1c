import ArgumentParsing
import CamrecKit
#if canImport(Glibc)
import Glibc
#endif

/// `camrec still [options] OUTPUT.jpg`: takes a photo (or a series) without a movie.
enum StillCommand {
    static let spec = CommandSpec(
        name: "camrec still",
        abstract: "Take a photo from a camera, after its auto-exposure has settled.",
        usage: "camrec still [options] OUTPUT",
        options: CameraOptions.specs + [
            OptionSpec(["--count", "-n"], value: "N", help: "take N photos (default: 1)"),
            OptionSpec(["--interval", "-i"], value: "T", help: "time between photos of a series (default: 1s)"),
            OptionSpec(["--settle"], value: "T", help: "wait at most T for the brightness to settle before the first photo; 0 takes the first frame (default: 3s)"),
            OptionSpec(["--still-quality", "-Q"], value: "Q", help: "JPEG quality 1-100 (default: 90)"),
            OptionSpec(["--force", "-f"], help: "replace OUTPUT if it exists (a single photo)"),
            OptionSpec(["--json"], help: "print JSON lines on stdout: still, warning, result"),
            OptionSpec(["--quiet", "-q"], help: "print nothing on stderr but errors"),
        ],
        positionals: [PositionalSpec("OUTPUT", help: "the photo: .jpg, .jpeg or .png (the extension picks the format); with --count, NAME-0001.jpg, … or a pattern with %04d")],
        discussion: "Exit codes are those of camrec record (see camrec --help)."
    )

    static func main(_ arguments: [String]) -> ExitStatus {
        let console: Console
        let config: StillConfig
        let warnings: [String]
        do {
            let parsed = try spec.parse(arguments)
            if parsed.helpRequested {
                print(spec.helpText)
                return .success
            }
            console = Console(json: parsed.flag("--json"), quiet: parsed.flag("--quiet"))
            do {
                (config, warnings) = try makeConfig(parsed)
            } catch {
                console.fail(error)
                return error.status
            }
        } catch {
            Console(json: arguments.contains("--json"), quiet: false).fail(CamrecError(.usage, error.message))
            return .usage
        }
        SignalWatcher.block(SignalWatcher.recordingSignals)
        let camera = StillCamera(config: config)
        SignalWatcher.start(SignalWatcher.recordingSignals) { signal in
            if signal != SIGUSR1 { camera.requestStop() }
        }
        let printer = RecordingPrinter(console: console)
        for warning in warnings { printer.show(.warning(warning)) }
        do {
            let result = try camera.run { event in
                // A photo has no movie, so no "movie time": a line of its own.
                guard case .still(let file) = event else { return printer.show(event) }
                console.emit(file, type: "still")
                console.say("camrec: still \(file.path) (\(humanBytes(file.bytes)))")
            }
            printer.show(result)
            return result.exitStatus
        } catch {
            console.fail(error)
            return error.status
        }
    }

    /// The photos to take, and warnings about the camera chosen.
    private static func makeConfig(_ parsed: ParsedArguments) throws(CamrecError) -> (StillConfig, warnings: [String]) {
        let options: (size: FrameSize?, rate: FrameRateValue?, count: Int, interval: TimeSpec, settle: TimeSpec, quality: Int)
        do {
            options = (
                try parsed.value("--size", FrameSize.parse),
                try parsed.value("--fps", FrameRateValue.parse),
                try parsed.value("--count", positiveInteger) ?? 1,
                try parsed.value("--interval") { (text: String) throws(ValueError) in try TimeSpec.parse(text) } ?? .seconds(1),
                try parsed.value("--settle") { (text: String) throws(ValueError) in try TimeSpec.parse(text) } ?? .seconds(3),
                try parsed.value("--still-quality", quality) ?? StillFormat.defaultQuality)
        } catch {
            throw CamrecError(.usage, error.message)
        }
        guard let output = parsed.positional("OUTPUT") else {
            throw CamrecError(.usage, "missing OUTPUT: give the photo to write, e.g. camrec still photo.jpg")
        }
        guard let format = StillFormat(path: output, quality: options.quality) else {
            throw CamrecError(.usage, "cannot tell the format of '\(output)': end OUTPUT with \(StillFormat.extensionList)")
        }
        let target: StillOutput
        if options.count == 1 && !output.contains("%") {
            try StillNaming.checkFolder(of: output)
            try OutputFile.checkDestination(output, overwrite: parsed.flag("--force"))
            target = .file(path: output, overwrite: parsed.flag("--force"))
        } else {
            let (stem, ext) = OutputFile.split(output)
            let pattern = output.contains("%") ? output : stem + "-%04d" + ext
            let naming = try StillNaming.parse(pattern, moviePath: output, format: format)
            try naming.checkDestination()
            target = .series(naming)
        }
        let resolution = try CameraResolver.resolve(device: parsed.value("--device"), size: options.size, rate: options.rate)
        let config = StillConfig(source: resolution.source, size: resolution.size, rate: resolution.rate, format: format,
                                 output: target, count: options.count, interval: options.interval, settle: options.settle)
        return (config, resolution.warnings)
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

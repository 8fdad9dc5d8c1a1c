import ArgumentParsing
import CamrecCLI
import CamrecKit

/// What `RecordCommand` does with its arguments: validates them into a request and runs it.
extension RecordCommand: Subcommand {
    /// What the command line asks for.
    enum Request {
        case version
        case record(RecordJob)
    }

    static func validate(_ parsed: ParsedArguments) throws(UsageError) -> Request {
        parsed.flag("--version") ? .version : .record(try RecordOptions.job(parsed))
    }

    static func run(_ request: Request, console: Console) throws(CamrecError) -> ExitStatus {
        // A reader of stdout or stderr that stops reading must never hold up a recording.
        StandardStream.queueWrites()
        switch request {
        case .version:
            print("camrec \(CommandDispatcher.version)")
            return .success
        case .record(let job):
            return try job.run(console: console)
        }
    }
}

/// The record command's options as given, handed to CamrecKit (`RecordArguments`), which
/// turns them into a `RecordJob`.
enum RecordOptions {
    static func job(_ parsed: ParsedArguments) throws(UsageError) -> RecordJob {
        var given = RecordArguments(camera: try CameraOptions.request(parsed), picture: try PictureOptions.request(parsed),
                                    output: parsed.positional("OUTPUT"))
        (given.codec, given.encoder) = (parsed.value("--codec"), parsed.value("--encoder"))
        (given.quality, given.bitrate) = (parsed.value("--quality"), parsed.value("--bitrate"))
        given.keyframeInterval = parsed.value("--keyframe-interval")
        (given.audio, given.audioBitrate) = (parsed.value("--audio"), parsed.value("--audio-bitrate"))
        (given.preview, given.previewValue) = (parsed.flag("--preview"), parsed.attachedValue("--preview"))
        given.previewStops = parsed.flag("--preview-stops")
        given.serve = ServeOptions.request(parsed)
        given.maxDuration = parsed.value("--max-duration")
        given.timelapse = parsed.value("--timelapse")
        given.clips = ClipOptions.request(parsed)
        given.pipeline = parsed.value("--pipeline")
        given.unattended = UnattendedOptions.request(parsed)
        ScheduleOptions.add(parsed, to: &given.unattended)
        (given.stills, given.stillFormat) = (parsed.value("--stills"), parsed.value("--still-format"))
        (given.stillQuality, given.stillEvery) = (parsed.value("--still-quality"), parsed.value("--still-every"))
        given.control = parsed.value("--control")
        given.layout = LayoutRequest(layout: parsed.value("--layout"), canvas: parsed.value("--canvas"))
        (given.outputPerDevice, given.allOrNothing) = (parsed.flag("--output-per-device"), parsed.flag("--all-or-nothing"))
        (given.sets, given.flash, given.keepControls) = (parsed.values("--set"), parsed.value("--flash"), parsed.flag("--keep-controls"))
        given.settle = parsed.value("--settle")
        given.cameraBuffers = parsed.value("--camera-buffers")
        given.loop = parsed.flag("--loop")
        (given.text, given.textEvery, given.textChanges) = (parsed.flag("--text"), parsed.value("--text-every"), parsed.flag("--text-changes"))
        (given.textLang, given.textRegion) = (parsed.value("--text-lang"), parsed.value("--text-region"))
        (given.force, given.printPipeline) = (parsed.flag("--force"), parsed.flag("--print-pipeline"))
        let location = try LocationOption.value(parsed)
        var job = try usage { () throws(CamrecError) in try given.job() }
        job.request.location = location
        return job
    }
}

import ArgumentParsing
import CamrecCLI
import CamrecKit

/// What `StillCommand` does with its arguments: validates them into a request and runs it.
extension StillCommand: Subcommand {
    static func validate(_ parsed: ParsedArguments) throws(UsageError) -> StillJob {
        let photo = try usage { () throws(CamrecError) in
            try StillJob.photo(output: parsed.positional("OUTPUT"), quality: parsed.value("--still-quality"))
        }
        let camera = try CameraOptions.request(parsed)
        let series = try usage { () throws(CamrecError) in
            try StillJob.Series(count: parsed.value("--count"), interval: parsed.value("--interval"), settle: parsed.value("--settle"))
        }
        let controls = try PictureControlOptions.request(parsed)
        var job = StillJob(camera: camera, photo: photo, series: series, controls: controls,
                           picture: try PictureOptions.request(parsed), force: parsed.flag("--force"))
        job.location = try LocationOption.value(parsed)
        job.textLanguages = try usage { () throws(CamrecError) in
            try StillJob.textLanguages(text: parsed.flag("--text"), lang: parsed.value("--text-lang"))
        }
        return job
    }

    static func run(_ job: StillJob, console: Console) throws(CamrecError) -> ExitStatus {
        // A reader of stdout or stderr that stops reading must never hold up a photo.
        StandardStream.queueWrites()
        return try job.run(console: console)
    }
}

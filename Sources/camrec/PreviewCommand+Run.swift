import ArgumentParsing
import CamrecCLI
import CamrecKit

/// What `PreviewCommand` does with its arguments: validates them into a request and runs it.
extension PreviewCommand: Subcommand {
    static func validate(_ parsed: ParsedArguments) throws(UsageError) -> PreviewJob {
        let stills = try usage { () throws(CamrecError) in
            try PreviewJob.stills(pattern: parsed.value("--stills"), format: parsed.value("--still-format"),
                                  quality: parsed.value("--still-quality"))
        }
        return PreviewJob(camera: try CameraOptions.request(parsed), controls: try PictureControlOptions.request(parsed),
                          picture: try PictureOptions.request(parsed), stills: stills)
    }

    static func run(_ job: PreviewJob, console: Console) throws(CamrecError) -> ExitStatus {
        try job.run(console: console)
    }
}

import ArgumentParsing
import CamrecCLI
import CamrecKit

/// What `TrimCommand` does with its arguments: validates them into a request and runs it.
extension TrimCommand: Subcommand {
    static func run(_ job: TrimmingJob, console: Console) throws(CamrecError) -> ExitStatus {
        try job.run(console: console)
    }

    /// Turns the command line into a typed request (all checks that need no media).
    static func validate(_ parsed: ParsedArguments) throws(UsageError) -> TrimmingJob {
        try usage { () throws(CamrecError) in
            var job = TrimmingJob(request: try TrimRequest.parse(
                input: parsed.positional("INPUT"), start: parsed.value("--start"), end: parsed.value("--end"),
                mode: parsed.value("--mode"), output: parsed.value("--output"), inPlace: parsed.flag("--in-place"),
                force: parsed.flag("--force")))
            job.hooks = try UnattendedOptions.hooks(parsed)
            return job
        }
    }
}

import ArgumentParsing
import CamrecCLI
import CamrecKit

/// What `ExportCommand` does with its arguments: validates them into a request and runs it.
extension ExportCommand: Subcommand {
    static func validate(_ parsed: ParsedArguments) throws(UsageError) -> ExportJob {
        do {
            var job = ExportJob(request: try ExportRequest(
                series: parsed.positionals, from: parsed.value("--from"), to: parsed.value("--to"),
                output: parsed.value("--output"), splitAtGaps: parsed.flag("--split-at-gaps"),
                force: parsed.flag("--force"), utc: parsed.flag("--utc"), speed: parsed.value("--speed"),
                timelapse: parsed.value("--timelapse"), reencode: parsed.flag("--reencode")
            ))
            job.hooks = try UnattendedOptions.hooks(parsed)
            return job
        } catch {
            throw UsageError(error.message)
        }
    }

    static func run(_ job: ExportJob, console: Console) throws(CamrecError) -> ExitStatus {
        try job.run(console: console)
    }
}

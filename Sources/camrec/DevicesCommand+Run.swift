import ArgumentParsing
import CamrecCLI
import CamrecKit

/// What `DevicesCommand` does with its arguments: validates them into a request and runs it.
extension DevicesCommand: Subcommand {
    static func validate(_ parsed: ParsedArguments) throws(UsageError) -> DevicesJob {
        DevicesJob(check: parsed.flag("--check"), json: parsed.flag("--json"), controls: parsed.flag("--controls"))
    }

    static func console(for parsed: ParsedArguments) -> Console { Console(json: false, quiet: false) }

    static func run(_ job: DevicesJob, console errors: Console) throws(CamrecError) -> ExitStatus {
        job.run(errors: errors)
    }
}

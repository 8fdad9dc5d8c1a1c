import ArgumentParsing
import CamrecCLI
import CamrecKit

/// What `LsCommand` does with its arguments: validates them into a request and runs it.
extension LsCommand: Subcommand {
    /// The arguments parsed with any number of PATHs (the spec shows one, for help).
    static let parsingSpec = spec.acceptingAnyNumber(of: "PATH")

    static func validate(_ parsed: ParsedArguments) throws(UsageError) -> LsJob {
        LsJob(paths: parsed.positionals, json: parsed.flag("--json"), utc: parsed.flag("--utc"), thumbs: parsed.flag("--thumbs"))
    }

    static func console(for parsed: ParsedArguments) -> Console {
        Console(json: parsed.flag("--json"), quiet: false)
    }

    static func run(_ job: LsJob, console: Console) throws(CamrecError) -> ExitStatus {
        job.run(console: console)
    }
}

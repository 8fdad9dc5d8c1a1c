import ArgumentParsing
import CamrecCLI
import CamrecKit

/// What `TextCommand` does with its arguments: validates them into a request and runs it.
extension TextCommand: Subcommand {
    /// The arguments parsed with any number of inputs (the spec shows one, for help).
    static let parsingSpec = spec.acceptingAnyNumber(of: "IMAGE|MOVIE")

    static func validate(_ parsed: ParsedArguments) throws(UsageError) -> TextRequest {
        do {
            return try TextRequest(inputs: parsed.positionals, languages: parsed.value("--lang"), region: parsed.value("--region"),
                                   every: parsed.value("--every"), minimumConfidence: parsed.value("--min-confidence"))
        } catch {
            throw UsageError(error.message)
        }
    }

    static func run(_ request: TextRequest, console: Console) throws(CamrecError) -> ExitStatus {
        try TextJob(request: request).run(console: console)
    }
}

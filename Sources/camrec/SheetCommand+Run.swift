import ArgumentParsing
import CamrecCLI
import CamrecKit

/// What `SheetCommand` does with its arguments: validates them into a request and runs it.
extension SheetCommand: Subcommand {
    /// The arguments parsed with any number of MOVIEs (the spec shows one, for help).
    static let parsingSpec = spec.acceptingAnyNumber(of: "MOVIE")

    static func validate(_ parsed: ParsedArguments) throws(UsageError) -> SheetRequest {
        do {
            return try SheetRequest(inputs: parsed.positionals, output: parsed.value("--output"), count: parsed.value("--count"),
                                    every: parsed.value("--every"), columns: parsed.value("--columns"),
                                    width: parsed.value("--width"), force: parsed.flag("--force"))
        } catch {
            throw UsageError(error.message)
        }
    }

    static func run(_ request: SheetRequest, console: Console) throws(CamrecError) -> ExitStatus {
        try SheetJob(request: request).run(console: console)
    }
}

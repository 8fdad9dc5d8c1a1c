import ArgumentParsing
import CamrecCLI
import CamrecKit

/// What `RecoverCommand` does with its arguments: validates them into a request and runs it.
extension RecoverCommand: Subcommand {
    /// The arguments parsed with any number of FILEs (the spec shows one, for help).
    static let parsingSpec = spec.acceptingAnyNumber(of: "FILE")

    /// Turns the command line into a typed request.
    static func validate(_ parsed: ParsedArguments) throws(UsageError) -> RecoverRequest {
        do {
            return try RecoverRequest(inputs: parsed.positionals, output: parsed.value("--output"),
                                      inPlace: parsed.flag("--in-place"), force: parsed.flag("--force"))
        } catch {
            throw UsageError(error.message)
        }
    }

    static func run(_ request: RecoverRequest, console: Console) throws(CamrecError) -> ExitStatus {
        RecoverJob(request: request).run(console: console)
    }
}

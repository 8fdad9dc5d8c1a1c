import ArgumentParsing
import CamrecCLI
import CamrecKit

/// What `CtlCommand` does with its arguments: validates them into a request and runs it.
extension CtlCommand: Subcommand {
    static func validate(_ parsed: ParsedArguments) throws(UsageError) -> ControlClientRequest {
        try usage { () throws(CamrecError) in
            try ControlClientRequest(socket: parsed.positional("SOCKET"), command: parsed.positional("COMMAND"),
                                     argument: parsed.positional("NAME=VALUE"), after: parsed.value("--after"),
                                     still: parsed.flag("--still"), timeout: parsed.value("--timeout"))
        }
    }

    static func console(for parsed: ParsedArguments) -> Console { Console(json: false, quiet: false) }

    static func run(_ request: ControlClientRequest, console: Console) throws(CamrecError) -> ExitStatus {
        let reply = try request.send()
        print(reply)
        return ControlClient.status(ofReply: reply)
    }
}

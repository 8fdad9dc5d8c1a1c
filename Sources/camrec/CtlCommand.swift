import ArgumentParsing
import CamrecKit

/// `camrec ctl PATH still|stop|status`: talks to a recording started with `--control PATH`.
enum CtlCommand {
    static let spec = CommandSpec(
        name: "camrec ctl",
        abstract: "Send a command to a running recording's control socket and print its JSON reply.",
        usage: "camrec ctl SOCKET still|stop|status",
        options: [],
        positionals: [
            PositionalSpec("SOCKET", help: "the path given to camrec --control"),
            PositionalSpec("COMMAND", help: "still (take a still; the reply names the file), stop (finalise and stop), status"),
        ],
        discussion: """
            Exit status: 0 when the recorder did it, 1 when it refused (the reply says why),
            69 when no recorder listens on SOCKET, 64 for a usage error.
            """
    )

    static func main(_ arguments: [String]) -> ExitStatus {
        let console = Console(json: false, quiet: false)
        let parsed: ParsedArguments
        do {
            parsed = try spec.parse(arguments)
        } catch {
            console.fail(CamrecError(.usage, error.message))
            return .usage
        }
        if parsed.helpRequested {
            print(spec.helpText)
            return .success
        }
        guard let socket = parsed.positional("SOCKET"), let command = parsed.positional("COMMAND") else {
            console.fail(CamrecError(.usage, "give a socket and a command, e.g. camrec ctl /tmp/camrec.sock still"))
            return .usage
        }
        do {
            let reply = try ControlClient.send(command, to: socket)
            print(reply)
            return reply.hasPrefix("{\"ok\":true") ? .success : .failure
        } catch {
            console.fail(error)
            return error.status
        }
    }
}

import ArgumentParsing
import CamrecKit

/// `camrec ctl PATH still|stop|status|split|clip|set NAME=VALUE`: talks to a recording started with `--control PATH`.
enum CtlCommand: Subcommand {
    static let spec = CommandSpec(
        name: "camrec ctl",
        abstract: "Send a command to a running recording's control socket and print its JSON reply.",
        usage: "camrec ctl SOCKET still|stop|status|split|clip [--after T] [--still]|set NAME=VALUE",
        options: [
            OptionSpec(["--after"], value: "T", help: "for clip: the clip goes on T after this trigger (instead of --post-roll)"),
            OptionSpec(["--still"], help: "for clip: also write the still of the trigger's frame (a Live Photo)"),
            OptionSpec(["--timeout"], value: "T", help: "how long to wait for the answer, behind other clients' commands (default 10s)"),
        ],
        positionals: [
            PositionalSpec("SOCKET", help: "the path given to camrec --control"),
            PositionalSpec("COMMAND", help: "still (take a still; the reply names the file), stop (finalise and stop), status, split (start the next segment now, with --segment), clip (make an event clip, with --pre-roll or --post-roll; the reply names it), set (set camera controls, as --set does)"),
            PositionalSpec("NAME=VALUE", help: "for set: the controls, NAME=VALUE[,NAME=VALUE…] (e.g. exposure=1/60,zoom=200); checked against the camera first", optional: true),
        ],
        discussion: """
            Commands sent while the recorder answers others wait their turn (--timeout).
            Exit status: 0 when the recorder did it, 1 when it refused (the reply says why),
            69 when no recorder listens on SOCKET or it did not answer in time, 64 for a usage error.
            """
    )

    static func validate(_ parsed: ParsedArguments) throws(UsageError) -> (socket: String, command: String, timeout: Int) {
        let timeout = try parsed.value("--timeout") { (text: String) throws(ValueError) -> Int in
            let time = try TimeSpec.parse(text)
            guard time.nanoseconds >= 1_000_000_000 else { throw ValueError("the timeout is at least 1 s, e.g. --timeout 30s") }
            return Int(time.nanoseconds / 1_000_000_000)
        } ?? 10
        let (socket, command) = try validateCommand(parsed)
        return (socket, command, timeout)
    }

    private static func validateCommand(_ parsed: ParsedArguments) throws(UsageError) -> (socket: String, command: String) {
        guard let socket = parsed.positional("SOCKET"), let command = parsed.positional("COMMAND") else {
            throw UsageError("give a socket and a command, e.g. camrec ctl /tmp/camrec.sock still")
        }
        if command == "set" {
            guard let assignments = parsed.positional("NAME=VALUE") else {
                throw UsageError("set needs NAME=VALUE, e.g. camrec ctl /tmp/camrec.sock set exposure=1/60")
            }
            return (socket, "set " + assignments)
        }
        guard ControlCommand(rawValue: command) != nil else {
            let known = ControlCommand.allCases.map(\.rawValue).joined(separator: ", ")
            throw UsageError("unknown command '\(command)': use one of \(known), e.g. camrec ctl \(socket) status")
        }
        if let extra = parsed.positional("NAME=VALUE") {
            let hint = command == "still"
                ? "the still is named by the recording's --stills pattern, and the reply gives its path"
                : "\(command) takes no argument"
            throw UsageError("unexpected argument '\(extra)' after \(command): \(hint)")
        }
        let after = parsed.value("--after")
        let still = parsed.flag("--still")
        if command == "clip" {
            return (socket, "clip" + (after.map { " --after " + $0 } ?? "") + (still ? " --still" : ""))
        }
        if after != nil || still {
            throw UsageError("--after and --still go with clip only, e.g. camrec ctl /tmp/camrec.sock clip --after 20s")
        }
        return (socket, command)
    }

    static func console(for parsed: ParsedArguments) -> Console { Console(json: false, quiet: false) }

    static func run(_ options: (socket: String, command: String, timeout: Int), console: Console) throws(CamrecError) -> ExitStatus {
        let reply = try ControlClient.send(options.command, to: options.socket, timeoutSeconds: options.timeout)
        print(reply)
        return ControlClient.status(ofReply: reply)
    }
}

/// What `camrec ctl SOCKET COMMAND [NAME=VALUE] [--after T] [--still] [--timeout T]` asks
/// for, typed from the arguments as given: the socket, the one line sent to it, and how
/// long to wait for the answer.
public struct ControlClientRequest: Sendable, Equatable {
    /// SOCKET: the path given to `camrec --control`.
    public var socket: String
    /// The command line sent, e.g. `set exposure=1/60` or `clip --after 20s --still`.
    public var line: String
    /// `--timeout` in whole seconds (default 10).
    public var timeoutSeconds: Int

    /// The request for `socket` and `command`, with `argument` (NAME=VALUE, for `set`
    /// only), `--after` and `--still` (for `clip` only) and `--timeout`, as given (nil: not
    /// given). Every refusal is a usage error.
    public init(socket: String?, command: String?, argument: String?, after: String?, still: Bool,
                timeout: String?) throws(CamrecError) {
        timeoutSeconds = try OptionValue.parse("--timeout", timeout) { (text: String) throws(ValueError) -> Int in
            let time = try TimeSpec.parse(text)
            guard time.nanoseconds >= 1_000_000_000 else { throw ValueError("the timeout is at least 1 s, e.g. --timeout 30s") }
            return Int(time.nanoseconds / 1_000_000_000)
        } ?? 10
        guard let socket, let command else {
            throw OptionValue.refusal("give a socket and a command, e.g. camrec ctl /tmp/camrec.sock still")
        }
        self.socket = socket
        line = try Self.line(socket: socket, command: command, argument: argument, after: after, still: still)
    }

    /// Sends the line and returns the recorder's JSON reply.
    public func send() throws(CamrecError) -> String {
        try ControlClient.send(line, to: socket, timeoutSeconds: timeoutSeconds)
    }

    private static func line(socket: String, command: String, argument: String?, after: String?,
                             still: Bool) throws(CamrecError) -> String {
        if command == "set" {
            guard let argument else {
                throw OptionValue.refusal("set needs NAME=VALUE, e.g. camrec ctl /tmp/camrec.sock set exposure=1/60")
            }
            return "set " + argument
        }
        guard ControlCommand(rawValue: command) != nil else {
            let known = ControlCommand.allCases.map(\.rawValue).joined(separator: ", ")
            throw OptionValue.refusal("unknown command '\(command)': use one of \(known), e.g. camrec ctl \(socket) status")
        }
        if let argument {
            let hint = command == "still"
                ? "the still is named by the recording's --stills pattern, and the reply gives its path"
                : "\(command) takes no argument"
            throw OptionValue.refusal("unexpected argument '\(argument)' after \(command): \(hint)")
        }
        if command == "clip" {
            return "clip" + (after.map { " --after " + $0 } ?? "") + (still ? " --still" : "")
        }
        if after != nil || still {
            throw OptionValue.refusal("--after and --still go with clip only, e.g. camrec ctl /tmp/camrec.sock clip --after 20s")
        }
        return command
    }
}

import CamrecCore
import FoundationEssentials
import MediaValues

/// `--on-file CMD`, `--on-file-jobs N`, `--on-file-timeout T` (or `--on-event CMD`,
/// `--on-event-jobs N`, `--on-event-timeout T`): what runs for each finished file (or each
/// event), how many at once, and for how long at most.
public struct HookSettings: Sendable, Equatable {
    /// The command.
    public var command: HookCommand
    /// Commands running at once, at most (the rest wait in order).
    public var jobs: Int
    /// How long one command may run before its process group is stopped.
    public var timeout: Duration

    /// The default for `--on-file-jobs`.
    public static let defaultJobs = 2
    /// The default for `--on-file-timeout`.
    public static let defaultTimeout: Duration = .seconds(600)

    public init(command: HookCommand, jobs: Int = defaultJobs, timeout: Duration = defaultTimeout) {
        self.command = command
        self.jobs = jobs
        self.timeout = timeout
    }

    /// The settings the options ask for; nil without `option` (`--on-file` or `--on-event`).
    /// Usage errors: a bad command, a program not found, `{file}` in an event's command,
    /// `OPTION-jobs` or `OPTION-timeout` without `option` or out of range.
    public static func resolve(_ option: String = "--on-file", command: String?, jobs: String?, timeout: String?,
                               path: String? = ProcessInfo.processInfo.environment["PATH"]) throws(CamrecError) -> HookSettings? {
        let (jobsOption, timeoutOption) = (option + "-jobs", option + "-timeout")
        guard let command else {
            if let given = [(jobsOption, jobs), (timeoutOption, timeout)].first(where: { $0.1 != nil })?.0 {
                throw OptionValue.refusal("\(given) needs \(option) CMD, the command it applies to")
            }
            return nil
        }
        let parsed = try HookCommand.parse(command, option: option)
        if option == "--on-event", parsed.words.contains(where: { $0.contains("{file}") }) {
            throw OptionValue.refusal("--on-event runs for events, which have no file: use {event} (the event's name), or read its JSON line on standard input; --on-file runs for files")
        }
        try parsed.check(path: path)
        let count = try OptionValue.parse(jobsOption, jobs) { (text: String) throws(ValueError) -> Int in
            guard let count = Int(text), (1...64).contains(count) else {
                throw ValueError("give how many commands may run at once, 1 to 64, e.g. \(jobsOption) 2")
            }
            return count
        } ?? defaultJobs
        let limit = try OptionValue.parse(timeoutOption, timeout) { (text: String) throws(ValueError) -> Duration in
            let time = try TimeSpec.parse(text)
            guard time.nanoseconds > 0 else { throw ValueError("give a time longer than 0, e.g. \(timeoutOption) 10m") }
            return .nanoseconds(time.nanoseconds)
        } ?? defaultTimeout
        return HookSettings(command: parsed, jobs: count, timeout: limit)
    }
}

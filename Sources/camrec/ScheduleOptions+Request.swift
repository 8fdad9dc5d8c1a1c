import ArgumentParsing
import CamrecCLI
import CamrecKit

/// `ScheduleOptions` typed: the options as given, turned into CamrecKit's request.
extension ScheduleOptions {
    /// Puts `--schedule` into `request`, as given.
    static func add(_ parsed: ParsedArguments, to request: inout UnattendedRequest) {
        request.schedule = parsed.value("--schedule")
        request.betweenWindows = parsed.value("--between-windows")
    }
}

import ArgumentParsing
import CamrecCLI
import CamrecKit

/// `UnattendedOptions` typed: the options as given, turned into CamrecKit's request.
extension UnattendedOptions {
    /// `--on-file`'s settings as given (nil without it), checked.
    static func hooks(_ parsed: ParsedArguments) throws(CamrecError) -> HookSettings? {
        try HookSettings.resolve(command: parsed.value("--on-file"), jobs: parsed.value("--on-file-jobs"),
                                 timeout: parsed.value("--on-file-timeout"))
    }

    /// The unattended-run options as given.
    static func request(_ parsed: ParsedArguments) -> UnattendedRequest {
        var request = UnattendedRequest(segment: parsed.value("--segment"), utc: parsed.flag("--utc"), keep: parsed.value("--keep"),
                          keepSize: parsed.value("--keep-size"), minFree: parsed.value("--min-free"), reconnect: parsed.flag("--reconnect"),
                          reconnectTimeout: parsed.value("--reconnect-timeout"), recoverPartials: parsed.flag("--recover-partials"))
        (request.onFile, request.onFileJobs) = (parsed.value("--on-file"), parsed.value("--on-file-jobs"))
        request.onFileTimeout = parsed.value("--on-file-timeout")
        (request.onEvent, request.onEventJobs) = (parsed.value("--on-event"), parsed.value("--on-event-jobs"))
        request.onEventTimeout = parsed.value("--on-event-timeout")
        return request
    }
}

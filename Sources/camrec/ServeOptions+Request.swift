import ArgumentParsing
import CamrecCLI
import CamrecKit

/// `ServeOptions` typed: the options as given, turned into CamrecKit's request.
extension ServeOptions {
    /// The live-stream options as given.
    static func request(_ parsed: ParsedArguments) -> ServeRequest {
        ServeRequest(serve: parsed.value("--serve"), auth: parsed.value("--serve-auth"),
                     authFile: parsed.value("--serve-auth-file"), insecure: parsed.flag("--serve-insecure"))
    }
}

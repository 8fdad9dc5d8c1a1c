import ArgumentParsing
import CamrecCLI
import CamrecKit

/// `LocationOption` typed: the options as given, turned into CamrecKit's request.
extension LocationOption {
    /// The location asked for; nil when `--location` is not given.
    static func value(_ parsed: ParsedArguments) throws(UsageError) -> GeoLocation? {
        try parsed.value("--location", GeoLocation.parse)
    }
}

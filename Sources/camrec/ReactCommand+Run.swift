import ArgumentParsing
import CamrecCLI
import CamrecKit

/// What `ReactCommand` does with its arguments: validates them into a request and runs it.
extension ReactCommand: Subcommand {
    static func validate(_ parsed: ParsedArguments) throws(UsageError) -> ReactArguments {
        var given = ReactArguments(video: parsed.positional("VIDEO"), output: parsed.positional("OUTPUT"))
        given.camera = parsed.value("--device")
        given.audio = parsed.value("--audio")
        given.mix = parsed.value("--mix")
        given.pip = parsed.value("--pip")
        (given.preview, given.previewValue, given.noPreview) = (parsed.flag("--preview"), parsed.attachedValue("--preview"),
                                                                parsed.flag("--no-preview"))
        given.maxDuration = parsed.value("--max-duration")
        given.force = parsed.flag("--force")
        given.separate = parsed.flag("--separate")
        if given.noPreview, given.preview {
            throw UsageError("--preview and --no-preview: give one of them")
        }
        return given
    }

    static func run(_ given: ReactArguments, console: Console) throws(CamrecError) -> ExitStatus {
        // A reader of stdout or stderr that stops reading must never hold up a recording.
        StandardStream.queueWrites()
        return try given.job().run(console: console)
    }
}

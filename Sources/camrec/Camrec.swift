import ArgumentParsing
import CamrecKit
#if canImport(Glibc)
import Glibc
#endif

/// The `camrec` command: picks a subcommand and exits with its status. All the work is in
/// CamrecKit; this target only parses arguments and prints.
@main
enum Camrec {
    static func main() {
        // Before anything can write: a reader that goes away must not kill a recording.
        StandardStream.ignoreBrokenPipe()
        // A closed stdout or stderr must not hand its number to a movie camrec opens.
        StandardStream.holdClosedDescriptors()
        // From argv's bytes: CommandLine.arguments would turn a non-UTF-8 file name into
        // another name (U+FFFD) without a word.
        let arguments: [String]
        do {
            arguments = try RawArguments.current()
        } catch {
            let json = CommandLine.arguments.contains("--json")
            Console(json: json, quiet: false).fail(CamrecError(.usage, error.message))
            exit(ExitStatus.usage.rawValue)
        }
        let status = CommandDispatcher.run(arguments)
        // What a recording queued for a slow reader gets a few seconds more; a reader that
        // has stopped reading does not keep camrec from exiting.
        StandardStream.drain(timeout: .seconds(5))
        exit(status.rawValue)
    }
}

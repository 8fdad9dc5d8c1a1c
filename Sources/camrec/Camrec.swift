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
        let status = CommandDispatcher.run(Array(CommandLine.arguments.dropFirst()))
        // What a recording queued for a slow reader gets a few seconds more; a reader that
        // has stopped reading does not keep camrec from exiting.
        StandardStream.drain(timeout: .seconds(5))
        exit(status.rawValue)
    }
}

import ArgumentParsing
import CamrecKit

/// Chooses the subcommand: `record` unless the first argument names another one, so
/// `camrec --max-duration 600 out.mp4` records exactly as written.
enum CommandDispatcher {
    static let version = "0.1.0"

    static let subcommands = Subcommands(["record", "devices", "still", "ctl", "trim"], default: "record")

    static func run(_ arguments: [String]) -> ExitStatus {
        if arguments == ["--version"] || arguments == ["-V"] {
            print("camrec \(version)")
            return .success
        }
        let (name, rest) = subcommands.select(arguments)
        switch name {
        case "devices": return DevicesCommand.main(rest)
        case "ctl": return CtlCommand.main(rest)
        case "still": return StillCommand.main(rest)
        case "trim": return TrimCommand.main(rest)
        default: return RecordCommand.main(rest)
        }
    }

    /// The exit-code table shown in help texts: codes right-padded to one column, meanings
    /// in the next (long ones wrap under the meaning, see HelpFormatter.reflow).
    static var exitCodeTable: String {
        let width = ExitStatus.allCases.map { String($0.rawValue).count }.max() ?? 3
        return "Exit codes:\n" + ExitStatus.allCases.map { status in
            let code = String(status.rawValue)
            return "  " + code + String(repeating: " ", count: width - code.count + 2) + status.meaning
        }.joined(separator: "\n")
    }
}

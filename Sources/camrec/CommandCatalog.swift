import ArgumentParsing
import CamrecKit

/// Every subcommand's spec, as its `--help` prints it. The man page and the shell
/// completions are made from these same specs, so they cannot disagree with the help.
enum CommandCatalog {
    /// A subcommand and its spec.
    struct Entry {
        let name: String
        let spec: CommandSpec
    }

    /// The spec `camrec NAME --help` prints; nil for `help`, which has none of its own.
    static func spec(for name: String) -> CommandSpec? {
        switch name {
        case "record": RecordCommand.spec
        case "devices": DevicesCommand.spec
        case "still": StillCommand.spec
        case "preview": PreviewCommand.spec
        case "ctl": CtlCommand.spec
        case "trim": TrimCommand.spec
        case "recover": RecoverCommand.spec
        case "doctor": DoctorCommand.spec
        case "encoders": EncodersCommand.spec
        default: nil
        }
    }

    /// The subcommands with a spec, in the dispatcher's order.
    static var entries: [Entry] {
        CommandDispatcher.subcommands.names.compactMap { name in spec(for: name).map { Entry(name: name, spec: $0) } }
    }

    /// Subcommands the dispatcher runs that have no spec here: a subcommand added to the
    /// dispatcher but not to `spec(for:)` (the generators refuse to leave it out silently).
    static var undocumented: [String] {
        CommandDispatcher.subcommands.names.filter { $0 != "help" && spec(for: $0) == nil }
    }

    /// The values an option's value can be completed from.
    enum ValueCompletion: Equatable {
        /// Nothing can be guessed (a time, a number).
        case none
        /// `test` and the cameras `camrec devices --json` lists.
        case devices
        /// File names.
        case files
        /// One of these words.
        case words([String])
    }

    /// What completes the value of `option` (any of its spellings).
    static func completion(for option: OptionSpec) -> ValueCompletion {
        guard option.takesValue else { return .none }
        switch option.name {
        case "--device": return .devices
        case "--still-format": return .words(["jpeg", "png"])
        case "--flash": return .words(["on", "off", "auto"])
        case "--set": return .words(ControlRequest.friendlyNames.map { $0.name + "=" })
        case "--mode": return .words(["accurate", "keyframe", "reencode"])
        case "--codec": return .words(["auto", "copy"] + VideoCodec.allCases.map(\.rawValue))
        case "--quality": return .words(Quality.allCases.map(\.rawValue))
        case "--layout": return .words(CanvasLayout.allCases.map(\.rawValue))
        case "--audio": return .words(["default", "camera", "test", "none"])
        case "--encoder": return .words(["auto", "software"])
        case "--size": return .words(["640x480", "1280x720", "1920x1080", "720p", "1080p"])
        case "--rotate": return .words(["90", "180", "270"])
        case "--flip": return .words(["horizontal", "vertical"])
        case "--overlay-position", "--overlay-image-position": return .words(OverlayPosition.allCases.map(\.rawValue))
        case "--output", "--stills", "--pipeline", "--control", "--overlay-image": return .files
        default: return .none
        }
    }

    /// What completes a subcommand's positional argument.
    static func completion(for positional: PositionalSpec, of command: String) -> ValueCompletion {
        switch (command, positional.name) {
        case ("ctl", "COMMAND"): .words(ControlCommand.allCases.map(\.rawValue))
        case ("ctl", "NAME=VALUE"): .words(ControlRequest.friendlyNames.map { $0.name + "=" })
        default: .files
        }
    }
}

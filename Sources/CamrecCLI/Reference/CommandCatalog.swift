import ArgumentParsing
import CamrecKit

/// Every subcommand's spec, as its `--help` prints it, and how their values complete: the
/// catalog the man page, the shell completions and docs/cli.md are made from, so they
/// cannot disagree with the help.
public enum CommandCatalog {
    /// camrec's subcommands, in the order `camrec --help` and the completions list them;
    /// `record` is the one a first argument that names none of them runs, and `help [SUBCOMMAND]`
    /// prints a subcommand's `--help`.
    public static let subcommands = Subcommands(["record", "devices", "still", "preview", "ctl", "trim", "recover", "ls", "doctor", "encoders", "sheet", "export", "text", "react", "help"], default: "record")

    /// The spec `camrec NAME --help` prints; nil for `help`, which has none of its own.
    public static func spec(for name: String) -> CommandSpec? {
        switch name {
        case "record": RecordCommand.spec
        case "devices": DevicesCommand.spec
        case "still": StillCommand.spec
        case "preview": PreviewCommand.spec
        case "ctl": CtlCommand.spec
        case "trim": TrimCommand.spec
        case "recover": RecoverCommand.spec
        case "ls": LsCommand.spec
        case "doctor": DoctorCommand.spec
        case "encoders": EncodersCommand.spec
        case "sheet": SheetCommand.spec
        case "export": ExportCommand.spec
        case "text": TextCommand.spec
        case "react": ReactCommand.spec
        default: nil
        }
    }

    /// camrec's subcommands with a spec, in ``subcommands``' order; `help` is the one
    /// without (its ``ProgramCatalog/undocumented`` lists a subcommand added to
    /// ``subcommands`` but not to `spec(for:)`: the generators refuse to leave it out silently).
    public static var catalog: ProgramCatalog {
        let entries = subcommands.names.compactMap { name in spec(for: name).map { ProgramCatalog.Entry(name: name, spec: $0) } }
        return ProgramCatalog(program: "camrec", version: CamrecVersion.number, subcommands: subcommands,
                              entries: entries, help: "help", completion: completion(for:))
    }

    /// What completes a value: an option's the same in every subcommand; a positional
    /// argument's files, but for ctl's COMMAND and NAME=VALUE.
    static func completion(for slot: ValueSlot) -> ValueCompletion {
        switch slot {
        case .option(let option, _): completion(for: option)
        case .positional(let positional, let command): completion(for: positional, of: command)
        }
    }

    /// What completes the value of `option` (any of its spellings).
    static func completion(for option: OptionSpec) -> ValueCompletion {
        guard option.takesValue else { return .none }
        switch option.name {
        case "--device": return .function(devices)
        case "--still-format": return .words(["jpeg", "png"])
        case "--flash": return .words(["on", "off", "auto"])
        case "--set": return .words(ControlRequest.friendlyNames.map { $0.name + "=" })
        case "--mode": return .words(["accurate", "keyframe", "reencode"])
        case "--codec": return .words(["auto", "copy"] + VideoCodec.allCases.map(\.rawValue))
        case "--quality": return .words(["auto"] + Quality.allCases.map(\.rawValue))
        case "--layout": return .words(CanvasLayout.names)
        case "--audio": return .words(["default", "camera", "test", "file", "none"])
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

    /// The cameras camrec can record from, for `--device`: `test`, and each path that
    /// `camrec devices --json` lists (the camrec being completed, when typed as a path).
    static let devices = ShellFunction(
        name: "_camrec_devices",
        comment: "The cameras camrec can record from: `test` and each path `camrec devices --json` lists.",
        bash: [
            #"local camrec=camrec json"#,
            #"[[ ${COMP_WORDS[0]} == */* ]] && camrec=${COMP_WORDS[0]}"#,
            #"json=$("$camrec" devices --json 2>/dev/null)"#,
            #"json=${json%%'],"problems":'*}"#,
            #"printf '%s\n' test"#,
            #"printf '%s\n' "$json" | grep -o '"path":"[^"]*"' | sed -e 's/^"path":"//' -e 's/"$//'"#,
        ],
        zsh: [
            #"local camrec=camrec json"#,
            #"[[ $words[1] == */* ]] && camrec=$words[1]"#,
            #"json=$($camrec devices --json 2>/dev/null)"#,
            #"json=${json%%'],"problems":'*}"#,
            #"local -a devices"#,
            #"devices=(test ${(f)"$(print -r -- $json | grep -o '"path":"[^"]*"' | sed -e 's/^"path":"//' -e 's/"$//')"})"#,
            #"compadd -a devices"#,
        ]
    )
}

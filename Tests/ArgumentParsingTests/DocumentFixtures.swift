import ArgumentParsing

/// A made-up program, `snap`, for the document writers' tests: a default subcommand
/// `shoot` with grouped options, `cut` and `list` with plain ones, and `help`.
enum DocumentFixtures {
    static let shoot = CommandSpec(
        name: "snap",
        abstract: "Take pictures from a camera.",
        usage: "snap [shoot] [options] OUTPUT",
        groups: [
            OptionGroup("camera", title: "Camera", abstract: "Which camera, and how.", options: [
                OptionSpec(["--device", "-d"], value: "DEV", help: "Camera to use: a path or `test`."),
                OptionSpec(["--flash"], value: "MODE", help: "Fire the flash: on, off or auto; default auto."),
            ], discussion: "Cameras are listed by snap list."),
            OptionGroup("output", title: "Output", abstract: "Where pictures go.", options: [
                OptionSpec(["--output", "-o"], value: "FILE", help: "Write to FILE (a .jpg or .png)."),
                OptionSpec(["--folder"], value: "DIR", help: "Put pictures in DIR."),
                OptionSpec(["--tag"], value: "WORD", help: "Tag the picture with WORD.", repeatable: true),
                OptionSpec(["--quiet", "-q"], help: "Print nothing."),
            ]),
        ],
        positionals: [PositionalSpec("OUTPUT", help: "The picture to write.")]
    )

    static let cut = CommandSpec(
        name: "snap cut",
        abstract: "Cut a picture to size.",
        usage: "",
        options: [
            OptionSpec(["--mode"], value: "MODE", help: "How to cut: fast or exact (default exact)."),
            OptionSpec(["--force", "-f"], help: "Overwrite OUTPUT."),
        ],
        positionals: [
            PositionalSpec("INPUT", help: "The picture to cut."),
            PositionalSpec("OUTPUT", help: "Where to write the part.", optional: true),
        ],
        discussion: "Example:\n  snap cut in.jpg out.jpg"
    )

    static let list = CommandSpec(
        name: "snap list", abstract: "List the cameras.", usage: "", options: [], positionals: []
    )

    /// The cameras `snap list` prints.
    static let cameras = ShellFunction(
        name: "_snap_cameras",
        comment: "The cameras snap list prints.",
        bash: ["snap list 2>/dev/null"],
        zsh: ["local -a cameras", "cameras=(${(f)\"$(snap list 2>/dev/null)\"})", "compadd -a cameras"]
    )

    static func completion(_ slot: ValueSlot) -> ValueCompletion {
        switch slot {
        case .option(let option, _):
            switch option.name {
            case "--device": .function(cameras)
            case "--flash": .words(["on", "off", "auto"])
            case "--mode": .words(["fast", "exact"])
            case "--output": .filesWithExtensions(["jpg", "png"])
            case "--folder": .folders
            default: .none
            }
        case .positional(let positional, let subcommand):
            subcommand == "cut" && positional.name == "INPUT" ? .filesWithExtensions(["jpg"]) : .files
        }
    }

    static let catalog = ProgramCatalog(
        program: "snap", version: "1.2-beta",
        subcommands: Subcommands(["shoot", "cut", "list", "help"], default: "shoot"),
        entries: [
            ProgramCatalog.Entry(name: "shoot", spec: shoot),
            ProgramCatalog.Entry(name: "cut", spec: cut),
            ProgramCatalog.Entry(name: "list", spec: list),
        ],
        help: "help",
        completion: completion
    )
}

import ArgumentParsing

/// Commands shaped like camrec's, shared by the tests.
enum Fixtures {
    static let record = CommandSpec(
        name: "camrec",
        abstract: "Record video from a camera to an MP4 file.",
        usage: "",
        options: [
            OptionSpec(["--device", "-d"], value: "DEV", help: "Camera to record from: a path or an index."),
            OptionSpec(["--max-duration"], value: "TIME", help: "Stop after TIME (default 10m); 0 for no limit."),
            OptionSpec(["--size", "-s"], value: "WxH", help: "Frame size, e.g. 1280x720 or 720p."),
            OptionSpec(["--still-at"], value: "TIME", help: "Also save a still image at TIME.", repeatable: true),
            OptionSpec(["--force", "-f"], help: "Overwrite OUTPUT if it exists."),
            OptionSpec(["--json"], help: "Print machine-readable events on stdout."),
        ],
        positionals: [PositionalSpec("OUTPUT", help: "The MP4 file to write.")]
    )

    static let trim = CommandSpec(
        name: "camrec trim",
        abstract: "Cut a part out of a recording.",
        usage: "camrec trim [--start TIME] [--end TIME] INPUT OUTPUT",
        options: [
            OptionSpec(["--start"], value: "TIME", help: "Where the part starts."),
            OptionSpec(["--end"], value: "TIME", help: "Where it ends; negative counts back from the end."),
            OptionSpec(["--force"], help: "Overwrite OUTPUT."),
        ],
        positionals: [
            PositionalSpec("INPUT", help: "The recording to cut."),
            PositionalSpec("OUTPUT", help: "Where to write the part."),
        ]
    )

    static let still = CommandSpec(
        name: "camrec still",
        abstract: "Save one image.",
        usage: "",
        options: [OptionSpec(["--device", "-d"], value: "DEV", help: "Camera.")],
        positionals: [PositionalSpec("OUTPUT", help: "Image file."), PositionalSpec("FORMAT", help: "jpeg or png.", optional: true)]
    )

    static let devices = CommandSpec(
        name: "camrec devices", abstract: "List cameras.", usage: "", options: [], positionals: []
    )
}

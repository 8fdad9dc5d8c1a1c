@testable import ArgumentParsing
import Testing

@Suite("CommandSpec.helpText")
struct HelpTextTests {
    @Test func recordHelpLayout() {
        let expected = """
            Record video from a camera to an MP4 file.

            USAGE: camrec [options] OUTPUT

            ARGUMENTS:
              OUTPUT               The MP4 file to write.

            OPTIONS:
              -d, --device DEV     Camera to record from: a path or an index.
              --max-duration TIME  Stop after TIME (default 10m); 0 for no limit.
              -s, --size WxH       Frame size, e.g. 1280x720 or 720p.
              --still-at TIME      Also save a still image at TIME. (repeatable)
              -f, --force          Overwrite OUTPUT if it exists.
              --json               Print machine-readable events on stdout.
              -h, --help           Show this help.

            """
        #expect(Fixtures.record.helpText == expected)
    }

    @Test func givenUsageLineIsUsedAsIs() {
        #expect(Fixtures.trim.helpText.hasPrefix("Cut a part out of a recording.\n\nUSAGE: camrec trim [--start TIME] [--end TIME] INPUT OUTPUT\n"))
        #expect(Fixtures.still.helpText.hasPrefix("Save one image.\n\nUSAGE: camrec still [options] OUTPUT [FORMAT]\n"))
        #expect(Fixtures.devices.helpText.hasPrefix("List cameras.\n\nUSAGE: camrec devices\n"))
    }

    static let wordy = CommandSpec(
        name: "camrec ctl",
        abstract: "Send a command to a running recording: stop it, take a still image, or ask how long it has been running, without touching the terminal it runs in.",
        usage: "",
        options: [
            OptionSpec(["--socket"], value: "PATH", help: "The control socket of the recording; by default the one of the only recording running as this user, found under $XDG_RUNTIME_DIR/camrec."),
            OptionSpec(["--a-really-long-option-name-indeed"], value: "SOMETHING", help: "Goes on the next line."),
            OptionSpec(["-q"], help: "Quiet."),
        ],
        positionals: [PositionalSpec("COMMAND", help: "stop, still or status.")],
        discussion: """
            EXIT CODES:
              0  success
              2  usage error

            This paragraph is deliberately long so that it has to be wrapped because it runs past the eightieth column.
              An indented line that is also far too long to fit and so continues at the same indentation.

            """
    )

    @Test func everyLineFitsIn80Columns() {
        for spec in [Self.wordy, Fixtures.record, Fixtures.trim, Fixtures.still, Fixtures.devices] {
            for line in spec.helpText.split(separator: "\n") {
                #expect(line.count <= 80, "\(spec.name): \(line)")
                #expect(!line.hasSuffix(" "), "\(spec.name): trailing space in '\(line)'")
            }
        }
    }

    @Test func wrapsLongTextAndPutsLongNamesOnTheirOwnLine() {
        let expected = """
            Send a command to a running recording: stop it, take a still image, or ask how
            long it has been running, without touching the terminal it runs in.

            USAGE: camrec ctl [options] COMMAND

            ARGUMENTS:
              COMMAND                     stop, still or status.

            OPTIONS:
              --socket PATH               The control socket of the recording; by default
                                          the one of the only recording running as this
                                          user, found under $XDG_RUNTIME_DIR/camrec.
              --a-really-long-option-name-indeed SOMETHING
                                          Goes on the next line.
              -q                          Quiet.
              -h, --help                  Show this help.

            EXIT CODES:
              0  success
              2  usage error

            This paragraph is deliberately long so that it has to be wrapped because it runs
            past the eightieth column.
              An indented line that is also far too long to fit and so continues at the
              same indentation.

            """
        #expect(Self.wordy.helpText == expected)
    }

    /// A long row of an indented table wraps under its second column, not its first.
    @Test func longTableRowsWrapUnderTheirSecondColumn() {
        let spec = CommandSpec(name: "x", abstract: "", usage: "", options: [], positionals: [], discussion: """
            Exit codes:
              0    success
              69   a GStreamer plugin camrec needs is missing, or no recorder listens on the ctl socket
              130  aborted
            """)
        #expect(spec.helpText.hasSuffix("""
            Exit codes:
              0    success
              69   a GStreamer plugin camrec needs is missing, or no recorder listens on the
                   ctl socket
              130  aborted

            """), "\(spec.helpText)")
    }

    /// Issue 29 item 14: wrapping never leaves one word alone on a text's last line.
    @Test func item14_noWordIsLeftAloneOnTheLastLine() {
        // Greedy wrapping at 42 columns would leave "mono" alone.
        let text = "with several cameras, in separate movies and on one canvas, the sound goes with the first movie and the others are recorded in mono"
        let lines = HelpFormatter.wrap(text, width: 42)
        #expect(lines.last == "in mono", "\(lines)")
        #expect(lines.allSatisfy { $0.count <= 42 }, "\(lines)")
        #expect(lines.joined(separator: " ") == text)
        // A single word stays as it is; two lines of one word each are left alone.
        #expect(HelpFormatter.wrap("alone", width: 40) == ["alone"])
        #expect(HelpFormatter.wrap("abcdefghij klmnopqrst", width: 12) == ["abcdefghij", "klmnopqrst"])
    }

    @Test func declaredHelpOptionIsNotDuplicated() {
        let spec = CommandSpec(
            name: "x", abstract: "", usage: "",
            options: [OptionSpec(["--height", "-h"], value: "N", help: "Height.")], positionals: []
        )
        #expect(spec.helpText == """
            USAGE: x [options]

            OPTIONS:
              -h, --height N  Height.
              --help          Show this help.

            """)
    }
}

@testable import ArgumentParsing
import Testing

/// Issue 32 item 4: a command whose options are listed under topics.
@Suite("OptionGroup")
struct OptionGroupTests {
    static let spec = CommandSpec(
        name: "cam",
        abstract: "Record a movie.",
        usage: "",
        groups: [
            OptionGroup("camera", title: "Camera", abstract: "Camera: which one, at what size.", options: [
                OptionSpec(["--device", "-d"], value: "DEV", help: "the camera: a path (/dev/video0), an index (0), part of its name, or 'test' for a test pattern", summary: "a path, an index, a name or test"),
                OptionSpec(["--size"], value: "WxH", help: "frame size"),
            ], discussion: "Cameras are found under /dev."),
            OptionGroup("output", title: "Output", abstract: "Output: when to stop.", options: [
                OptionSpec(["--max-duration", "-t"], value: "T", help: "stop after T", repeatable: true),
                OptionSpec(["--quiet", "-q"], help: "say nothing"),
            ]),
        ],
        positionals: [PositionalSpec("OUTPUT", help: "the movie")],
        discussion: "Exit codes: 0 ok."
    )

    @Test func theOptionsAreTheGroupsInOrder() {
        #expect(Self.spec.options.map(\.name) == ["--device", "--size", "--max-duration", "--quiet"])
        #expect(Self.spec.group(topic: "output")?.title == "Output")
        #expect(Self.spec.group(topic: "sound") == nil)
        #expect(Self.spec.likelyTopic("camrea") == "camera")
        #expect(Self.spec.likelyTopic("Output") == "output")
        #expect(Self.spec.likelyTopic("xyz") == nil)
    }

    @Test func theShortHelpListsEachGroupInBrief() {
        #expect(Self.spec.helpText == """
            Record a movie.

            USAGE: cam [options] OUTPUT

            ARGUMENTS:
              OUTPUT                the movie

            OPTIONS: (in brief; cam help TOPIC shows a topic's options in full)
              -h, --help [TOPIC]    show this help, or one topic's options in full

            Camera (cam help camera):
              -d, --device DEV      a path, an index, a name or test
              --size WxH            frame size

            Output (cam help output):
              -t, --max-duration T  stop after T
              -q, --quiet           say nothing

            Exit codes: 0 ok.

            """)
    }

    @Test func aTopicIsShownInFull() {
        #expect(Self.spec.helpText(topic: "camera") == """
            Camera: which one, at what size.

            USAGE: cam [options] OUTPUT

            CAMERA OPTIONS:
              -d, --device DEV  the camera: a path (/dev/video0), an index (0), part of its
                                name, or 'test' for a test pattern
              --size WxH        frame size

            Cameras are found under /dev.

            Other topics: output (cam help TOPIC); cam --help lists them all in brief.

            """)
        #expect(Self.spec.helpText(topic: "output")?.contains("stop after T (repeatable)") == true)
        #expect(Self.spec.helpText(topic: "sound") == nil)
    }

    @Test(arguments: [
        (["--help", "camera"], "camera"),
        (["-h", "output", "x.mp4"], "output"),
        (["-qh", "camera"], "camera"),
        (["x.mp4", "--help"], nil),
        (["--help", "--quiet"], nil),
        (["--help", "--", "camera"], nil),
    ] as [([String], String?)])
    func theWordAfterHelpIsItsTopic(_ arguments: [String], topic: String?) throws {
        let parsed = try Self.spec.parse(arguments)
        #expect(parsed.helpRequested)
        #expect(parsed.helpTopic == topic)
    }

    @Test func aSummaryIsKeptBySummarized() {
        let option = OptionSpec(["--preview"], attachedValue: "auto", help: "show a window")
        let summarized = option.summarized("a window")
        #expect(summarized.brief == "a window" && summarized.help == "show a window")
        #expect(summarized.attachedValueName == "auto" && option.brief == "show a window")
    }
}

import ArgumentParsing
import Testing

/// The Markdown reference a made-up program's catalog makes (issue 31: the writers, tested
/// without camrec).
@Suite("MarkdownReference")
struct MarkdownReferenceTests {
    static let text = MarkdownReference(
        catalog: DocumentFixtures.catalog, title: "snap command-line reference",
        introduction: ["<!-- generated -->", "", "Every option of snap."],
        sections: [MarkdownReference.Section(title: "snap help", lines: ["Prints help."])]
    ).text

    @Test func theContentsLinkEverySubcommandItsTopicsAndTheProgramsSections() {
        #expect(Self.text.hasPrefix("""
            # snap command-line reference

            <!-- generated -->

            Every option of snap.

            - [snap [shoot]](#snap-shoot): Take pictures from a camera.
              - [Camera](#camera) (`snap help camera`)
              - [Output](#output) (`snap help output`)
            - [snap cut](#snap-cut): Cut a picture to size.
            - [snap list](#snap-list): List the cameras.
            - [snap help](#snap-help)

            ## snap [shoot]

            Take pictures from a camera.

            ```text
            snap [shoot] [options] OUTPUT
            ```

            """))
    }

    @Test func aGroupIsAHeadingWithItsAbstractCommandOptionsAndDiscussion() {
        #expect(Self.text.contains("""
            ### Camera

            Which camera, and how. (`snap help camera`)

            - `-d`, `--device DEV`: Camera to use: a path or `test`.
            - `--flash MODE`: Fire the flash: on, off or auto; default auto.

            ```text
            Cameras are listed by snap list.
            ```

            ### Output

            Where pictures go. (`snap help output`)

            - `-o`, `--output FILE`: Write to FILE (a .jpg or .png).
            - `--folder DIR`: Put pictures in DIR.
            - `--tag WORD`: Tag the picture with WORD. (repeatable)
            - `-q`, `--quiet`: Print nothing.

            ### Help

            - `-h`, `--help [TOPIC]`: Show this help, or one topic's options in full.

            ## snap cut

            """))
    }

    @Test func aPlainCommandListsArgumentsOptionsAndItsDiscussion() {
        #expect(Self.text.contains("""
            Arguments:

            - `INPUT`: The picture to cut.
            - `OUTPUT` (optional): Where to write the part.

            Options:

            - `--mode MODE`: How to cut: fast or exact (default exact).
            - `-f`, `--force`: Overwrite OUTPUT.
            - `-h`, `--help`: Show this help.

            ```text
            Example:
              snap cut in.jpg out.jpg
            ```

            """))
        #expect(Self.text.hasSuffix("- `-h`, `--help`: Show this help.\n\n## snap help\n\nPrints help.\n"))
    }

    @Test func inlineTextEscapesMarkdownOutsideCodeSpans() {
        #expect(MarkdownReference.inline("a_b *c* <d> [e] |f| \\g `h_i <j>`") == "a\\_b \\*c\\* \\<d\\> \\[e\\] \\|f\\| \\\\g `h_i <j>`")
    }

    @Test func anchorsAreGitHubs() {
        #expect(MarkdownReference.anchor("snap [shoot]") == "snap-shoot")
        #expect(MarkdownReference.anchor("Stills and clips") == "stills-and-clips")
        #expect(MarkdownReference.anchor("Output & limits_2") == "output--limits_2")
    }
}

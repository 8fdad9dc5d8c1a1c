import ArgumentParsing
import CamrecKit

/// camrec(1) (`camrec help --man`; `scripts/package` runs it at build time): every
/// subcommand from its spec (``ManPageWriter``), and what only camrec says: the help
/// subcommand, the exit status, environment, files and see-also sections.
public enum ManPage {
    /// The page's roff text.
    public static func text() -> String {
        ManPageWriter(
            catalog: CommandCatalog.catalog, generatedBy: "camrec help --man",
            purpose: "record movies and stills from a camera, and trim movies, from the command line",
            additions: additions
        ).text
    }

    private static var additions: ManPageWriter.Additions {
        var sections = [".SH \"EXIT STATUS\""]
        for status in ExitStatus.allCases {
            sections += ManPageWriter.item("\\fB\(status.rawValue)\\fR", status.meaning)
        }
        sections += [
            ".SH ENVIRONMENT",
            ".TP", "\\fBCAMREC_DEVICE_PATHS\\fR",
            "Colon-separated device paths probed besides /dev/video0 \\[u2026] /dev/video63.",
            ".TP", "\\fBDISPLAY\\fR, \\fBWAYLAND_DISPLAY\\fR",
            "Where \\fB\\-\\-preview\\fR and \\fBcamrec preview\\fR open their window; with both unset they stop before opening the camera (\\fB\\-\\-preview=auto\\fR records without a window).",
            ".TP", "\\fBCAMREC_PREVIEW_SINK\\fR",
            "The preview window's video sink in gst\\-launch syntax (default: xvimagesink, else ximagesink; autovideosink without X11).",
            ".TP", "\\fBNO_COLOR\\fR",
            "When set and not empty, the progress line on a terminal has no colour.",
            ".SH FILES",
            ".TP", "\\fI/etc/camrec/NAME.conf\\fR",
            "The options of the service \\fBcamrec@NAME.service\\fR (see /usr/share/doc/camrec/examples/camrec.conf).",
            ".TP", "\\fI/lib/systemd/system/camrec@.service\\fR",
            "The systemd template unit: \\fBsystemctl enable \\-\\-now camrec@NAME\\fR.",
            ".TP", "\\fI/usr/share/doc/camrec/events.schema.json\\fR",
            "The JSON Schema of every line camrec prints with \\fB\\-\\-json\\fR.",
            ".SH \"SEE ALSO\"",
            "\\fBgst\\-launch\\-1.0\\fR(1), \\fBgst\\-inspect\\-1.0\\fR(1), \\fBsystemctl\\fR(1), \\fBsystemd.exec\\fR(5)",
        ]
        return ManPageWriter.Additions(
            synopsis: [".br", "\\fBcamrec help\\fR [\\fISUBCOMMAND\\fR|\\fITOPIC\\fR]", ".br", "\\fBcamrec \\-\\-version\\fR"],
            description: ManPageWriter.paragraph(RecordCommand.spec.abstract) + [
                ".PP",
                "It is made for unattended use: no prompts, documented exit codes, and JSON lines on",
                "standard output with \\fB\\-\\-json\\fR. Each subcommand is described below as its",
                "\\fB\\-\\-help\\fR shows it.",
            ],
            commands: [
                ".SS \"camrec help [SUBCOMMAND|TOPIC]\"",
                "Prints camrec's help, a subcommand's (the same as \\fB\\-\\-help\\fR), or one topic of camrec's options in full (the same as \\fBcamrec \\-\\-help\\fR \\fITOPIC\\fR): "
                    + ManPageWriter.escape(RecordCommand.spec.topicList) + ".",
            ],
            sections: sections
        )
    }
}

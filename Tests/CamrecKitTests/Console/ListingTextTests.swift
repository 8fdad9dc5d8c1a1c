import Testing
@testable import CamrecKit

/// The texts for people of doctor, encoders, recover and ctl, now reachable without
/// running the commands.
@Suite struct ListingTextTests {
    @Test func doctorsReportIsOneLinePerCheckWithItsFixUnderneathThenASummary() {
        let report = DoctorReport(checks: [
            DoctorCheck(.gstreamer, "GStreamer", .ok, "1.22.0"),
            DoctorCheck(.output, "folder", .warning, "2 hours of video fit", fix: "free some space"),
            .problem(.camera, "/dev/video0", CamrecError(.cameraBusy, "busy"), fix: "close the other program"),
            DoctorCheck(.sound, "server", .info, "none answers", fix: "not shown for info"),
        ])
        #expect(report.humanText == """
            ok      GStreamer: 1.22.0
            warning output folder: 2 hours of video fit
                    fix: free some space
            PROBLEM /dev/video0: busy
                    fix: close the other program
            info    server: none answers
            1 problem, 1 warning: fix the problems above (exit status \(report.exitStatus.rawValue))

            """)
        #expect(DoctorReport(checks: [DoctorCheck(.gstreamer, "GStreamer", .ok, "1.22.0")]).humanText
            .hasSuffix("0 problems, 0 warnings: camrec has what a recording needs\n"))
    }

    @Test func encodersAreListedInColumnsWithWhetherEachWorks() {
        let lines = [
            EncoderListing.Line(factory: "vah264enc", longName: "VA-API H.264", codec: "h264", hardware: true, rank: 0,
                                plugin: "va", works: false, reason: "no VA display", auto: false),
            EncoderListing.Line(factory: "x264enc", longName: "x264", codec: "h264", hardware: false, rank: 256,
                                plugin: "x264", works: true, reason: nil, auto: true),
            EncoderListing.Line(factory: "jpegenc", longName: "JPEG", codec: "mjpeg", hardware: false, rank: 256,
                                plugin: "jpeg", works: nil, reason: nil, auto: nil),
        ]
        #expect(EncoderListing.humanText(lines) == """
            h264   vah264enc  hardware  does not work: no VA display
            h264   x264enc    software  works  (auto's choice)
            mjpeg  jpegenc    software  not tried

            """)
    }

    @Test func aRefusedFileIsAnErrorLineAndAResultLine() {
        let (output, error) = (CapturedStream(), CapturedStream())
        let printer = RecoverPrinter(console: Console(json: true, output: output, error: error), errors: error.stream)
        printer.show(.refused("a.partial.mp4", CamrecError(.invalidInput, "a.partial.mp4 holds no whole frame")))
        #expect(error.lines == ["camrec: a.partial.mp4 holds no whole frame"])
        #expect(output.lines.first?.hasPrefix(#"{"type":"result","exit_code":65,"input":"a.partial.mp4","#) == true,
                "\(output.text)")
    }

    @Test func ctlSucceedsOnlyWhenTheRecorderDidIt() {
        #expect(ControlClient.status(ofReply: #"{"ok":true,"path":"s.jpg"}"#) == .success)
        #expect(ControlClient.status(ofReply: #"{"ok":false,"error":"no camera controls"}"#) == .failure)
        #expect(ControlClient.status(ofReply: "") == .failure)
    }
}

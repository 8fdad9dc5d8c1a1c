@testable import CamrecKit
import Testing

/// The preview window's branch of the recording pipeline ({preview}): what it decodes for
/// each kind of camera, and that it only ever drops frames.
@Suite struct PreviewBranchTests {
    static let size = FrameSize(width: 640, height: 480)
    static let rate = FrameRateValue(numerator: 30, denominator: 1)

    static func format(_ decoding: CameraFormat.Decoding) -> CameraFormat {
        CameraFormat(fourcc: "X", caps: "video/x-raw,width=640,height=480,framerate=30/1", size: size, rate: rate,
                     decoding: decoding, reason: "")
    }

    func line(_ source: VideoSource, preview: PreviewSettings? = PreviewSettings(), copy: Bool = false,
              picture: PictureSettings = .unchanged, printed: Bool = false) throws -> String {
        var config = RecordConfig(source: source, size: Self.size, rate: Self.rate, maxDuration: .seconds(3), outputPath: "out.mkv",
                                  container: .matroska, overwrite: false, encoder: EncoderSettings())
        if copy { config.encoder = EncoderSettings(factory: nil) }
        config.preview = preview
        config.picture = picture
        let pipeline = RecordPipeline(config: config)
        return printed ? try pipeline.commandLine() : try pipeline.description(location: "out.mkv")
    }

    /// The branch alone: from its tee pad to the end.
    func branch(_ line: String) -> String {
        guard let start = line.range(of: "t. ! queue name=previewqueue") else { return "" }
        return String(line[start.lowerBound...])
    }

    static let oneFrame = "t. ! queue name=previewqueue leaky=downstream max-size-buffers=1 max-size-bytes=0 max-size-time=0"
    static let sink = "appsink name=preview drop=true max-buffers=1 sync=false async=false wait-on-eos=false enable-last-sample=false"

    @Test func rawFramesGoStraightToTheDroppingSink() throws {
        #expect(branch(try line(.testPattern)) == Self.oneFrame + " ! " + Self.sink)
        #expect(branch(try line(.camera(path: "/dev/video0", format: Self.format(.none)))) == Self.oneFrame + " ! " + Self.sink)
        // An H.264 camera's frames are decoded before the tee when they are encoded again.
        #expect(branch(try line(.camera(path: "/dev/video0", format: Self.format(.h264)))) == Self.oneFrame + " ! " + Self.sink)
    }

    @Test func jpegFramesAreDecodedOnTheBranchOwnThread() throws {
        let jpeg = VideoSource.camera(path: "/dev/video0", format: Self.format(.jpeg))
        #expect(branch(try line(jpeg)) == Self.oneFrame + " ! jpegdec ! " + Self.sink)
        #expect(branch(try line(jpeg, copy: true)) == Self.oneFrame + " ! jpegdec ! " + Self.sink)
        // A changed picture decodes before the tee (the stills show the change): nothing to decode here.
        let turned = PictureSettings(orientation: Orientation(rotation: .upsideDown))
        #expect(branch(try line(jpeg, picture: turned)) == Self.oneFrame + " ! " + Self.sink)
    }

    @Test func copiedH264IsDecodedBeforeAnyFrameIsDropped() throws {
        let h264 = VideoSource.camera(path: "/dev/video0", format: Self.format(.h264))
        #expect(branch(try line(h264, copy: true)) == "t. ! queue name=previewqueue leaky=downstream max-size-buffers=0 max-size-bytes=0"
            + " max-size-time=2000000000 ! avdec_h264 ! queue leaky=downstream max-size-buffers=1 max-size-bytes=0 max-size-time=0 ! "
            + Self.sink)
    }

    @Test func thePrintedLineDrawsTheWindowInThePipeline() throws {
        #expect(branch(try line(.testPattern, printed: true)) == Self.oneFrame
            + " ! videoconvert ! textoverlay text=REC valignment=top halignment=left shaded-background=true ! videoconvert"
            + " ! autovideosink sync=false")
    }

    @Test func noPreviewNoBranch() throws {
        #expect(!(try line(.testPattern, preview: nil)).contains("preview"))
        #expect(!(try line(.testPattern, preview: nil, printed: true)).contains("preview"))
    }

    @Test func aTemplateWithoutThePlaceholderWorksUntilAPreviewIsAsked() throws {
        let old = PipelineTemplate(text: "{source} name=src ! {caps} {decode_shared} ! tee name=t t. ! queue name=record {decode_record} {encode} ! {output} t. ! appsink name=stills")
        var config = RecordConfig(source: .testPattern, size: Self.size, rate: Self.rate, maxDuration: .seconds(3), outputPath: "out.mkv",
                                  container: .matroska, overwrite: false, encoder: EncoderSettings())
        #expect(throws: Never.self) { try RecordPipeline(config: config, template: old).description(location: "x.mkv") }
        config.preview = PreviewSettings()
        #expect(throws: TemplateError.self) { try RecordPipeline(config: config, template: old).description(location: "x.mkv") }
    }
}

@Suite struct PreviewStatusTests {
    @Test func recordingShowsElapsedAndLimit() {
        #expect(PreviewStatus(label: "REC", elapsed: 12.9, limit: 600).text == "REC 0:12 / 10:00")
        #expect(PreviewStatus(label: "REC", elapsed: 3723, limit: nil).text == "REC 1:02:03")
        #expect(PreviewStatus(label: "REC", elapsed: 0, limit: 7200).text == "REC 0:00 / 2:00:00")
        #expect(PreviewStatus(label: "PREVIEW").text == "PREVIEW")
    }
}

@Suite struct DisplayEnvironmentTests {
    @Test func namedDisplaysAndTheirSinks() {
        let none = DisplayEnvironment(environment: ["DISPLAY": "", "HOME": "/root"])
        #expect(!none.isAvailable)
        #expect(none.description == "no display")
        let x11 = DisplayEnvironment(environment: ["DISPLAY": ":0"])
        #expect(x11.isAvailable && x11.description == "DISPLAY=:0")
        #expect(x11.sinkCandidates == ["xvimagesink", "ximagesink"])
        let wayland = DisplayEnvironment(environment: ["WAYLAND_DISPLAY": "wayland-0"])
        #expect(wayland.isAvailable && wayland.sinkCandidates == ["autovideosink"])
    }

    @Test func noDisplayIsRefusedBeforeAnyPipeline() {
        #expect(throws: PreviewUnavailable.noDisplay) {
            try PreviewWindow.open(display: DisplayEnvironment(environment: [:]))
        }
    }
}

@testable import CamrecKit
import Testing

@Suite struct PipelineTemplateTests {
    @Test func builtInTemplateHasTheNamedElementsCamrecReaches() {
        let body = PipelineTemplate.record.body
        // "encoder" comes with {encode} (there is none with --codec copy), "audiosrc" with {audio}.
        for name in ["name=src", "name=t", "name=record", "name=stills"] {
            #expect(body.contains(name), "record.pipeline lacks \(name)")
        }
        #expect(PipelineTemplate.record.placeholders == ["source", "caps", "decode_shared", "picture", "decode_record", "encode", "output", "audio", "motion", "preview"])
    }

    @Test func renderFillsPlaceholdersAndDropsComments() throws {
        let template = PipelineTemplate(text: "# a comment\n{a} ! {b}\n  # another\n ! fakesink {c}\n")
        #expect(try template.render(["a": "videotestsrc", "b": "queue", "c": ""]) == "videotestsrc ! queue ! fakesink")
    }

    @Test func missingOrUnknownPlaceholdersAreErrors() {
        let template = PipelineTemplate(text: "{a} ! fakesink")
        #expect(throws: TemplateError.self) { try template.render([:]) }
        #expect(throws: TemplateError.self) { try template.render(["a": "x", "b": "y"]) }
    }
}

@Suite struct RecordPipelineTests {
    func config(source: VideoSource, output: String = "out.mp4", container: MediaContainer = .mp4) -> RecordConfig {
        RecordConfig(source: source, size: FrameSize(width: 640, height: 480), rate: FrameRateValue(numerator: 30, denominator: 1),
                     maxDuration: .seconds(3), outputPath: output, container: container, overwrite: false,
                     encoder: EncoderSettings())
    }

    @Test func testPatternPipeline() throws {
        let line = try RecordPipeline(config: config(source: .testPattern)).description(location: "/tmp/a b\"c.mp4")
        #expect(line.hasPrefix("videotestsrc is-live=true"))
        #expect(line.contains("video/x-raw,width=640,height=480,framerate=30/1"))
        #expect(line.contains("key-int-max=30"))
        #expect(line.contains("videoconvert ! video/x-raw,format=I420 ! x264enc"), "raw frames keep their colorimetry")
        #expect(line.contains(" name=encoder ! h264parse ! mp4mux"))
        #expect(line.contains("mp4mux fragment-duration=500 fragment-mode=first-moov-then-finalise name=mux ! filesink name=sink"))
        #expect(line.contains(" location=\"/tmp/a b\\\"c.mp4\" "))
    }

    @Test func mjpegCameraIsDecodedAndH264CameraParsedThenDecoded() throws {
        let mjpeg = CameraFormat(fourcc: "MJPG", caps: "image/jpeg,width=640,height=480,framerate=30/1",
                                 size: FrameSize(width: 640, height: 480), rate: FrameRateValue(numerator: 30, denominator: 1),
                                 decoding: .jpeg, reason: "")
        let line = try RecordPipeline(config: config(source: .camera(path: "/dev/video0", format: mjpeg), container: .matroska))
            .description(location: "x.mkv")
        #expect(line.hasPrefix("v4l2src device=/dev/video0 name=src ! image/jpeg,width=640,height=480,framerate=30/1 ! tee name=t"))
        #expect(line.contains("queue name=record max-size-buffers=0 max-size-bytes=0 max-size-time=2000000000 ! jpegdec ! videoconvert ! video/x-raw,format=I420,colorimetry=bt601 !"))
        #expect(line.contains("matroskamux offset-to-zero=true name=mux"))
        var h264 = mjpeg
        h264.decoding = .h264
        let h264Line = try RecordPipeline(config: config(source: .camera(path: "/dev/video0", format: h264))).description(location: "x.mp4")
        #expect(h264Line.contains("! h264parse ! avdec_h264 ! tee"))
        #expect(!h264Line.contains("jpegdec"))
    }

    @Test func eachCodecHasItsEncoderAndParser() throws {
        var h265 = config(source: .testPattern)
        h265.encoder = EncoderSettings(codec: .h265, factory: "x265enc")
        let line = try RecordPipeline(config: h265).description(location: "x.mp4")
        #expect(line.contains("! x265enc speed-preset=ultrafast tune=zerolatency key-int-max=30 bitrate=387 name=encoder ! h265parse ! video/x-h265,stream-format=hvc1,alignment=au ! mp4mux"))
        var mjpeg = config(source: .testPattern, output: "x.mkv", container: .matroska)
        mjpeg.encoder = EncoderSettings(codec: .mjpeg, factory: "jpegenc")
        #expect(try RecordPipeline(config: mjpeg).description(location: "x.mkv").contains("! jpegenc quality=75 name=encoder ! matroskamux"))
        var hardware = config(source: .testPattern)
        hardware.encoder = EncoderSettings(factory: "vah264enc")
        #expect(try RecordPipeline(config: hardware).description(location: "x.mp4").contains("! videoconvert ! video/x-raw,format=NV12 ! vah264enc rate-control=cbr"))
    }

    @Test func passthroughParsesOnlyAndHasNoEncoder() throws {
        let h264 = CameraFormat(fourcc: "H264", caps: "video/x-h264,width=640,height=480,framerate=30/1",
                                size: FrameSize(width: 640, height: 480), rate: FrameRateValue(30), decoding: .h264, reason: "")
        var copy = config(source: .camera(path: "/dev/video0", format: h264))
        copy.encoder = EncoderSettings(factory: nil)
        let line = try RecordPipeline(config: copy).description(location: "x.mp4")
        #expect(line.contains("video/x-h264,width=640,height=480,framerate=30/1 ! h264parse config-interval=-1 ! tee name=t"))
        #expect(line.contains("max-size-time=2000000000 ! mp4mux"))
        #expect(!line.contains("avdec_h264") && !line.contains("name=encoder"))
        var jpeg = h264
        jpeg.decoding = .jpeg
        jpeg.caps = "image/jpeg,width=640,height=480,framerate=30/1"
        var mjpeg = config(source: .camera(path: "/dev/video0", format: jpeg), output: "x.mkv", container: .matroska)
        mjpeg.encoder = EncoderSettings(codec: .mjpeg, factory: nil)
        let mjpegLine = try RecordPipeline(config: mjpeg).description(location: "x.mkv")
        #expect(mjpegLine.contains("framerate=30/1 ! tee name=t") && mjpegLine.contains("max-size-time=2000000000 ! matroskamux"))
        #expect(!mjpegLine.contains("jpegdec"))
    }

    /// A `--pipeline` written before {encode} existed still records H.264.
    @Test func olderTemplatesWithEncoderAndColorimetryStillWork() throws {
        let old = PipelineTemplate(text: """
            {source} name=src ! {caps} {decode_shared} {picture} ! tee name=t
              t. ! queue name=record {decode_record} ! videoconvert ! video/x-raw,format=I420{colorimetry}
                 ! {encoder} name=encoder ! h264parse ! {output}
              t. ! appsink name=stills
            """)
        let line = try RecordPipeline(config: config(source: .testPattern), template: old).description(location: "x.mp4")
        #expect(line.contains("format=I420 ! x264enc speed-preset=veryfast tune=zerolatency key-int-max=30 bitrate=645 name=encoder ! h264parse"))
        var h265 = config(source: .testPattern)
        h265.encoder = EncoderSettings(codec: .h265, factory: "x265enc")
        #expect(throws: TemplateError.self) { try RecordPipeline(config: h265, template: old).description(location: "x.mp4") }
    }

    @Test func printedCommandLineIsShellQuoted() throws {
        let line = try RecordPipeline(config: config(source: .testPattern, output: "my movie's.mp4")).commandLine()
        #expect(line.hasPrefix("gst-launch-1.0 -e videotestsrc"))
        #expect(line.contains(" location='my movie'\\''s.mp4' "))
    }

    @Test(arguments: [("a.mp4", MediaContainer.mp4), ("dir.x/B.MOV", .mov), ("c.mkv", .matroska)])
    func containerFromExtension(path: String, container: MediaContainer) {
        #expect(MediaContainer(recordingPath: path) == container)
    }

    @Test(arguments: ["a.avi", "noextension", "dir.mp4/file"])
    func unsupportedExtensions(path: String) {
        #expect(MediaContainer(recordingPath: path) == nil)
    }
}

@Suite struct FrameGateTests {
    @Test func admitsExactlyTheFramesBelowTheLimit() {
        let gate = FrameGate(limit: .seconds(3), rate: FrameRateValue(numerator: 30, denominator: 1))
        var limitCalls = 0
        var passed = 0
        // Camera timestamps start late and jitter by up to ±3 ms.
        for frame in 0..<200 {
            let jitter = UInt64((frame * 7919) % 7) * 1_000_000
            let pts = 5_000_000_000 + UInt64(frame) * 33_333_333 + jitter
            if case .pass = gate.admit(pts: pts, onLimit: { limitCalls += 1 }) { passed += 1 }
        }
        #expect(passed == 90)
        #expect(gate.frames == 90)
        #expect(limitCalls == 1)
        #expect(gate.isClosed)
    }

    @Test func withoutLimitCountsEverything() {
        let gate = FrameGate(limit: nil, rate: FrameRateValue(numerator: 25, denominator: 1))
        for frame in 0..<50 {
            _ = gate.admit(pts: UInt64(frame) * 40_000_000) { Issue.record("no limit to reach") }
        }
        #expect(gate.frames == 50)
        #expect(gate.recordedSeconds(frameDuration: 0.04) == 2.0)
    }
}

@testable import CamrecKit
import GStreamer
import Testing

/// Issue 14's encoding choices, without GStreamer: the planner's decisions, each
/// encoder's properties, the presets' bitrates, and `--bitrate`'s syntax.
@Suite struct EncodingPlannerTests {
    let size = FrameSize(width: 1280, height: 720)
    let rate = FrameRateValue(30)

    func camera(_ fourcc: String, _ decoding: CameraFormat.Decoding, rate: FrameRateValue = FrameRateValue(30)) -> VideoSource {
        .camera(path: "/dev/video0", format: CameraFormat(fourcc: fourcc, caps: "x", size: size, rate: rate,
                                                          decoding: decoding, reason: ""))
    }

    func context(_ source: VideoSource, container: MediaContainer = .mp4, movieRate: FrameRateValue? = nil,
                 needsDecoding: [String] = []) -> EncodingPlanner.Context {
        .init(source: source, rate: movieRate ?? rate, container: container, needsDecoding: needsDecoding)
    }

    func software(_ codec: VideoCodec) throws(CamrecError) -> EncoderPick {
        let factory = EncoderSelection.softwarePackage(for: codec).factory
        return EncoderPick(factory: factory, hardware: false, reason: "\(factory) (software)")
    }

    func plan(_ request: EncodingRequest, _ context: EncodingPlanner.Context) throws(CamrecError) -> (settings: EncoderSettings, warnings: [String]) {
        try EncodingPlanner.plan(request, context: context, pickEncoder: software)
    }

    @Test func autoStoresAnH264CamerasStreamAsItComes() throws {
        let planned = try plan(EncodingRequest(), context(camera("H264", .h264)))
        #expect(planned.settings.isPassthrough)
        #expect(planned.settings.codec == .h264)
        #expect(planned.settings.reason.contains("stored as it comes"))
        #expect(planned.warnings.isEmpty)
        #expect(EncodingPlanner.preferredFamilies(EncodingRequest(), needsDecoding: []) == [.h264])
    }

    @Test func autoEncodesWhenThePictureIsChangedOrFramesAreDropped() throws {
        let rotated = try plan(EncodingRequest(), context(camera("H264", .h264), needsDecoding: ["--rotate changes the picture"]))
        #expect(rotated.settings.factory == "x264enc")
        #expect(rotated.settings.reason.contains("decoded and encoded again because --rotate changes the picture"))
        #expect(EncodingPlanner.preferredFamilies(EncodingRequest(), needsDecoding: ["x"]).isEmpty)
        let slower = try plan(EncodingRequest(), context(camera("H264", .h264), movieRate: FrameRateValue(15)))
        #expect(slower.settings.factory == "x264enc")
        #expect(slower.settings.reason.contains("--fps 15 keeps only some"))
    }

    @Test func autoEncodesWhenEncodingOptionsAreGiven() throws {
        let request = EncodingRequest(bitrate: 800)
        #expect(EncodingPlanner.preferredFamilies(request, needsDecoding: []).isEmpty)
        let planned = try plan(request, context(camera("H264", .h264)))
        #expect(planned.settings.factory == "x264enc")
        #expect(planned.settings.reason.contains("--bitrate asks for encoding"))
    }

    @Test func autoEncodesRawAndMJPEGCamerasToH264() throws {
        for source in [camera("YUYV", .none), camera("MJPG", .jpeg), VideoSource.testPattern] {
            let planned = try plan(EncodingRequest(), context(source))
            #expect(planned.settings.factory == "x264enc" && planned.settings.codec == .h264)
        }
    }

    @Test func copyTakesH264AndMJPEGCamerasOnly() throws {
        let mjpeg = try plan(EncodingRequest(codec: .copy), context(camera("MJPG", .jpeg), container: .matroska))
        #expect(mjpeg.settings.isPassthrough && mjpeg.settings.codec == .mjpeg)
        #expect(throws: CamrecError.self) { try plan(EncodingRequest(codec: .copy), context(camera("MJPG", .jpeg), container: .mp4)) }
        #expect(throws: CamrecError.self) { try plan(EncodingRequest(codec: .copy), context(camera("YUYV", .none))) }
        #expect(throws: CamrecError.self) { try plan(EncodingRequest(codec: .copy), context(.testPattern)) }
        #expect(throws: CamrecError.self) {
            try plan(EncodingRequest(codec: .copy), context(camera("H264", .h264), needsDecoding: ["--settle measures the picture"]))
        }
        do {
            _ = try plan(EncodingRequest(codec: .copy), context(camera("YUYV", .none)))
        } catch {
            #expect(error.status == .usage)
            #expect(error.message.contains("delivers YUYV"))
        }
        let warned = try plan(EncodingRequest(codec: .copy, quality: .high, qualityGiven: true), context(camera("H264", .h264)))
        #expect(warned.warnings == ["--quality not used: the camera's stream is stored as it comes (use --codec h264 to encode it)"])
    }

    @Test func codecsGoOnlyInContainersThatHoldThem() throws {
        #expect(throws: CamrecError.self) { try plan(EncodingRequest(codec: .encode(.mjpeg)), context(.testPattern)) }
        for container in [MediaContainer.matroska, .mov] {
            let planned = try plan(EncodingRequest(codec: .encode(.mjpeg)), context(.testPattern, container: container))
            #expect(planned.settings.factory == "jpegenc")
        }
        for container in MediaContainer.recordable {
            let planned = try plan(EncodingRequest(codec: .encode(.h265)), context(.testPattern, container: container))
            #expect(planned.settings.factory == "x265enc")
        }
    }

    @Test func mjpegHasNoBitrate() {
        #expect(throws: CamrecError.self) {
            try plan(EncodingRequest(codec: .encode(.mjpeg), bitrate: 4000), context(.testPattern, container: .matroska))
        }
    }
}

@Suite struct EncoderProfileTests {
    func profile(_ factory: String, codec: VideoCodec = .h264, quality: Quality = .medium, bitrate: Int? = 2000,
                 asked: Bool = false, has: Set<String> = []) -> EncoderProfile {
        EncoderProfile.make(factory: factory, settings: .init(codec: codec, quality: quality, bitrate: bitrate, gop: 30,
                                                              bitrateAsked: asked)) { has.contains($0) }
    }

    @Test func softwareEncoders() {
        #expect(profile("x264enc").element == "x264enc speed-preset=veryfast tune=zerolatency key-int-max=30 bitrate=2000")
        #expect(profile("x264enc", quality: .max).element.contains("speed-preset=faster"))
        #expect(profile("x265enc", codec: .h265).element == "x265enc speed-preset=ultrafast tune=zerolatency key-int-max=30 bitrate=2000")
        #expect(profile("x265enc", codec: .h265, asked: true).element.hasSuffix(
            "option-string=\"vbv-maxrate=2000:vbv-bufsize=2000:strict-cbr=1\""))
        #expect(profile("jpegenc", codec: .mjpeg, quality: .high, bitrate: nil).element == "jpegenc quality=85")
        #expect(profile("openh264enc").element == "openh264enc rate-control=bitrate bitrate=2000000 gop-size=30")
        #expect(profile("x264enc").inputFormat == "I420")
    }

    @Test func hardwareEncodersGetTheirOwnPropertiesAndNV12() {
        let v4l2 = profile("v4l2h264enc")
        #expect(v4l2.element == "v4l2h264enc extra-controls=\"controls,video_bitrate=2000000,h264_i_frame_period=30,repeat_sequence_header=1\"")
        #expect(v4l2.inputFormat == "NV12")
        #expect(profile("vah264enc").element == "vah264enc rate-control=cbr bitrate=2000 key-int-max=30")
        #expect(profile("vaapih264enc").element == "vaapih264enc rate-control=cbr bitrate=2000 keyframe-period=30")
        #expect(profile("nvh264enc").element.contains("gop-size=30"))
        #expect(profile("qsvh264enc").element.contains("gop-size=30"))
    }

    /// What is made for each installed encoder (and the fake hardware one, mapped from its
    /// properties) is accepted by it: a trial encodes frames with exactly that element.
    @Test func theInstalledEncodersAcceptTheirProfiles() throws {
        try EncoderTrialTests.fakesLoaded.get()
        for (factory, codec) in [("x264enc", VideoCodec.h264), ("openh264enc", .h264), ("x265enc", .h265),
                                 ("jpegenc", .mjpeg), ("fakehwh264enc", .h264)] {
            for quality in Quality.allCases {
                let element = profile(factory, codec: codec, quality: quality, bitrate: codec == .mjpeg ? nil : 800,
                                      asked: true, has: factory == "fakehwh264enc" ? ["bitrate", "keyframe-period"] : []).element
                #expect(EncoderTrial.run(element: element, codec: codec, size: EncoderTrialTests.size,
                                         rate: EncoderTrialTests.rate) == .works, "\(element)")
            }
        }
    }

    @Test func theV4L2ControlsParseAsAStructure() throws {
        // v4l2src has the same extra-controls property as the V4L2 encoders; it is only parsed here.
        for factory in ["v4l2h264enc", "v4l2h265enc"] {
            let controls = profile(factory).properties.joined(separator: " ")
            _ = try Pipeline.parse("v4l2src device=/dev/camrec-none \(controls) ! fakesink")
        }
        #expect(profile("v4l2h265enc", codec: .h265).element == "v4l2h265enc extra-controls=\"controls,video_bitrate=2000000,video_gop_size=30\"")
    }

    @Test func unknownEncodersAreMappedFromTheirProperties() {
        let fake = profile("somehwenc", has: ["bitrate", "keyframe-period"])
        #expect(fake.element == "somehwenc bitrate=2000 keyframe-period=30")
        #expect(fake.inputFormat == nil)
        #expect(profile("bareenc").element == "bareenc")
        #expect(profile("avenc_h264_omx").element == "avenc_h264_omx bitrate=2000000 gop-size=30")
    }
}

@Suite struct QualityPresetTests {
    @Test func eachStepDoublesTheBits() {
        let size = FrameSize(width: 1280, height: 720), rate = FrameRateValue(30)
        let rates = Quality.allCases.map { EncoderSettings.bitrate(codec: .h264, quality: $0, size: size, rate: rate) }
        #expect(rates == [967, 1935, 3870, 7741])
        #expect(EncoderSettings.bitrate(codec: .h265, quality: .medium, size: size, rate: rate) == 1161)
        // camrec's default before --quality existed: ~1.9 Mbit/s for 720p30.
        #expect(EncoderSettings().targetBitrate(size: size, rate: rate) == 1935)
        #expect(EncoderSettings(bitrate: 800).targetBitrate(size: size, rate: rate) == 800)
        var mjpeg = EncoderSettings(codec: .mjpeg, factory: "jpegenc")
        #expect(mjpeg.targetBitrate(size: size, rate: rate) == nil)
        mjpeg.factory = nil
        #expect(mjpeg.isPassthrough && mjpeg.profile(size: size, rate: rate) == nil)
    }

    @Test func bitrateSyntax() throws {
        #expect(try BitRate.parseKilobits("800k") == 800)
        #expect(try BitRate.parseKilobits("4M") == 4000)
        #expect(try BitRate.parseKilobits("2.5Mbps") == 2500)
        #expect(try BitRate.parseKilobits("1500000") == 1500)
        #expect(try BitRate.parseKilobits("64kbit/s") == 64)
        for bad in ["", "k", "fast", "10k", "1G", "-1M", "1.2.3M"] {
            #expect(throws: ValueError.self, "\(bad)") { try BitRate.parseKilobits(bad) }
        }
    }

    @Test func codecAndEncoderWords() {
        #expect(CodecRequest("H265") == .encode(.h265))
        #expect(CodecRequest("copy") == .copy)
        #expect(CodecRequest("vp9") == nil)
        #expect(EncoderRequest("Software") == .software)
        #expect(EncoderRequest("vah264enc") == .named("vah264enc"))
    }
}

@Suite struct KeyframeGapTests {
    @Test func longestGapBetweenKeyframes() {
        var gaps = KeyframeGaps()
        #expect(gaps.longestSeconds == nil)
        gaps.note(1_000_000_000)
        #expect(gaps.longestSeconds == nil, "one keyframe is no interval")
        gaps.note(2_000_000_000)
        gaps.note(4_500_000_000)
        gaps.note(5_000_000_000)
        #expect(gaps.longestSeconds == 2.5)
    }

    /// In passthrough the movie starts at the first keyframe, and segments start only at keyframes.
    @Test func passthroughGateStartsAndCutsAtKeyframes() {
        let gate = FrameGate(limit: nil, rate: FrameRateValue(10), segment: .seconds(1), measuresKeyframes: true)
        var starts: [UInt64] = []
        /// Whether the frame at `tenth` tenths of a second is let through.
        func admit(_ tenth: UInt64, key: Bool) -> Bool {
            let decision = gate.admit(pts: tenth * 100_000_000, keyframe: key, onLimit: {}, onSegmentStart: { starts.append($0) })
            if case .pass = decision { return true }
            return false
        }
        #expect(!admit(0, key: false), "nothing to decode it from")
        #expect(admit(1, key: true))
        for tenth in 2...14 { #expect(admit(UInt64(tenth), key: tenth % 5 == 1)) }
        // The boundary at 1.1 s falls on a keyframe (11); the one at 2.1 s waits for none yet.
        #expect(starts == [1_100_000_000])
        #expect(gate.longestKeyframeInterval == 0.5)
    }
}

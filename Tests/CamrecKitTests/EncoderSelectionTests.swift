@testable import CamrecKit
import Testing

/// `--encoder auto|software|NAME` on plain values: candidates, trials and errors without
/// GStreamer. Every branch: auto with a working, a broken and no hardware encoder, software,
/// and a name that is missing, of another codec, no encoder at all, or failing.
@Suite struct EncoderSelectionTests {
    static func encoder(_ factory: String, _ codec: VideoCodec = .h264, hardware: Bool, rank: Int = 0) -> EncoderCandidate {
        EncoderCandidate(factory: factory, longName: factory, codec: codec, isHardware: hardware, rank: rank, plugin: "p")
    }

    static let broken = encoder("brokenhwh264enc", hardware: true)
    static let working = encoder("fakehwh264enc", hardware: true)
    static let x264 = encoder("x264enc", hardware: false, rank: 256)
    static let openh264 = encoder("openh264enc", hardware: false, rank: 64)
    static let jpeg = encoder("jpegenc", .mjpeg, hardware: false, rank: 256)

    /// Records the element descriptions tried, and answers from `outcomes` (unlisted: works).
    final class Trials {
        var tried: [String] = []
        let outcomes: [String: TrialOutcome]
        init(_ outcomes: [String: TrialOutcome] = [:]) { self.outcomes = outcomes }
        func run(_ element: String) -> TrialOutcome {
            tried.append(element)
            return outcomes[element.split(separator: " ").first.map(String.init) ?? element] ?? .works
        }
    }

    func select(_ request: EncoderRequest, _ candidates: [EncoderCandidate], trials: Trials, codec: VideoCodec = .h264,
                installed: Set<String> = []) throws(CamrecError) -> EncoderSelection.Selection {
        try EncoderSelection.select(request: request, codec: codec, candidates: candidates,
                                    describe: { "\($0.factory) bitrate=2000" }, trial: trials.run,
                                    isInstalled: { installed.contains($0) })
    }

    func error(_ body: () throws(CamrecError) -> EncoderSelection.Selection) -> CamrecError? {
        do {
            _ = try body()
            return nil
        } catch {
            return error
        }
    }

    @Test func autoTakesTheFirstWorkingHardwareEncoderAfterWarningAboutABrokenOne() throws {
        let trials = Trials(["brokenhwh264enc": .fails(reason: "no device")])
        let chosen = try select(.auto, [Self.broken, Self.working, Self.x264], trials: trials)
        #expect(chosen.candidate == Self.working)
        #expect(chosen.element == "fakehwh264enc bitrate=2000")
        #expect(trials.tried == ["brokenhwh264enc bitrate=2000", "fakehwh264enc bitrate=2000"])
        #expect(chosen.reason == "fakehwh264enc: hardware, works (encoded 5 test frames)")
        #expect(chosen.warnings == ["skipped hardware encoder brokenhwh264enc: it failed to start (no device); using fakehwh264enc"])
    }

    @Test func autoStopsAtTheFirstWorkingHardwareEncoder() throws {
        let trials = Trials()
        let chosen = try select(.auto, [Self.working, Self.broken, Self.x264], trials: trials)
        #expect(chosen.candidate == Self.working && chosen.warnings.isEmpty)
        #expect(trials.tried == ["fakehwh264enc bitrate=2000"])
    }

    @Test func autoFallsBackToSoftwareWhenNoHardwareEncoderWorks() throws {
        let trials = Trials(["brokenhwh264enc": .fails(reason: "no device")])
        let chosen = try select(.auto, [Self.broken, Self.x264, Self.openh264], trials: trials)
        #expect(chosen.candidate == Self.x264)
        #expect(chosen.element == "x264enc bitrate=2000")
        // Software is not tried: it needs no device.
        #expect(trials.tried == ["brokenhwh264enc bitrate=2000"])
        #expect(chosen.reason == "x264enc: software; no hardware H.264 encoder works here (brokenhwh264enc failed)")
        #expect(chosen.warnings == ["skipped hardware encoder brokenhwh264enc: it failed to start (no device); using x264enc"])
    }

    @Test func autoWithoutHardwareTakesSoftwareWithoutATrial() throws {
        let trials = Trials()
        let chosen = try select(.auto, [Self.x264, Self.openh264], trials: trials)
        #expect(chosen.candidate == Self.x264 && chosen.warnings.isEmpty && trials.tried.isEmpty)
        #expect(chosen.reason == "x264enc: software; no hardware H.264 encoder found")
    }

    @Test func autoIgnoresEncodersOfOtherCodecs() throws {
        let chosen = try select(.auto, [Self.jpeg, Self.openh264], trials: Trials())
        #expect(chosen.candidate == Self.openh264)
    }

    @Test(arguments: [
        (VideoCodec.h264, "x264enc", "gstreamer1.0-plugins-ugly"),
        (VideoCodec.h265, "x265enc", "gstreamer1.0-plugins-bad"),
        (VideoCodec.mjpeg, "jpegenc", "gstreamer1.0-plugins-good"),
    ])
    func noSoftwareEncoderIsExit69NamingThePackage(codec: VideoCodec, factory: String, package: String) throws {
        let trials = Trials(["brokenhwh264enc": .fails(reason: "no device")])
        for request in [EncoderRequest.auto, .software] {
            let failure = try #require(error { () throws(CamrecError) in try select(request, [Self.broken], trials: trials, codec: codec) })
            #expect(failure.status == .unavailable)
            #expect(failure.message.contains(factory) && failure.message.contains("sudo apt-get install \(package)"), "\(failure.message)")
        }
    }

    @Test func softwareNeverTriesHardware() throws {
        let trials = Trials()
        let chosen = try select(.software, [Self.working, Self.openh264, Self.x264], trials: trials)
        #expect(chosen.candidate == Self.openh264, "the list's order is the catalog's: the first software one")
        #expect(trials.tried.isEmpty && chosen.warnings.isEmpty)
        #expect(chosen.reason == "openh264enc: software, as asked (--encoder software)")
    }

    @Test func aNamedEncoderThatWorksIsTakenAfterItsTrial() throws {
        let trials = Trials()
        let chosen = try select(.named("fakehwh264enc"), [Self.broken, Self.working, Self.x264], trials: trials)
        #expect(chosen.candidate == Self.working && trials.tried == ["fakehwh264enc bitrate=2000"])
        #expect(chosen.reason == "fakehwh264enc: hardware, as asked (--encoder fakehwh264enc), works (encoded 5 test frames)")
    }

    @Test func aNamedEncoderThatFailsIsExit69WithItsReasonAndNoFallback() throws {
        let trials = Trials(["brokenhwh264enc": .fails(reason: "no device")])
        let failure = try #require(error { () throws(CamrecError) in try select(.named("brokenhwh264enc"), [Self.broken, Self.x264], trials: trials) })
        #expect(failure.status == .unavailable)
        #expect(failure.message.hasPrefix("encoder brokenhwh264enc does not work here: no device"), "\(failure.message)")
        #expect(trials.tried == ["brokenhwh264enc bitrate=2000"])
    }

    @Test(arguments: [
        ("vah264enc", "gstreamer1.0-plugins-bad"),
        ("vaapih264enc", "gstreamer1.0-vaapi"),
        ("v4l2h264enc", "gstreamer1.0-plugins-good"),
        ("nvh264enc", "gstreamer1.0-plugins-bad"),
        ("qsvh264enc", "gstreamer1.0-plugins-bad"),
        ("avenc_h264_vaapi", "gstreamer1.0-libav"),
    ])
    func aMissingNamedEncoderIsExit69NamingItsPackage(factory: String, package: String) throws {
        let failure = try #require(error { () throws(CamrecError) in try select(.named(factory), [Self.x264], trials: Trials()) })
        #expect(failure.status == .unavailable)
        // The well-known hardware encoders say what they need (a plugin registers them only
        // where their device and driver are); the others name their package.
        if PluginChecks.hardwareEncoders.contains(where: { $0.factory == factory }) {
            #expect(failure.message.hasPrefix("encoder \(factory) is not available here: it needs "), "\(failure.message)")
            #expect(failure.message.contains(package), "\(failure.message)")
        } else {
            #expect(failure.message == "encoder \(factory) is not installed: install it with: sudo apt-get install \(package)")
        }
        #expect(!failure.message.contains("\n"))
    }

    @Test func aMissingNamedEncoderOfNoKnownPackageSaysHowToLook() throws {
        let failure = try #require(error { () throws(CamrecError) in try select(.named("noenc"), [Self.x264], trials: Trials()) })
        #expect(failure.status == .unavailable && failure.message.contains("gst-inspect-1.0 noenc"), "\(failure.message)")
    }

    @Test func aNamedEncoderOfAnotherCodecIsAUsageError() throws {
        let trials = Trials()
        let failure = try #require(error { () throws(CamrecError) in try select(.named("jpegenc"), [Self.x264, Self.jpeg], trials: trials) })
        #expect(failure.status == .usage)
        #expect(failure.message.contains("jpegenc encodes Motion JPEG, not H.264"), "\(failure.message)")
        #expect(trials.tried.isEmpty)
    }

    @Test func aNamedElementThatIsNoEncoderIsAUsageError() throws {
        let failure = try #require(error { () throws(CamrecError) in
            try select(.named("videoconvert"), [Self.x264], trials: Trials(), installed: ["videoconvert"])
        })
        #expect(failure.status == .usage && failure.message.contains("videoconvert is not a video encoder"), "\(failure.message)")
    }
}

/// The catalog's order, on plain values.
@Suite struct EncoderOrderTests {
    @Test func hardwareFirstByRankThenNameThenCamrecsSoftwareChoiceThenTheRestByRank() {
        func e(_ name: String, hardware: Bool, rank: Int) -> EncoderCandidate {
            EncoderCandidate(factory: name, longName: name, codec: .h264, isHardware: hardware, rank: rank, plugin: "")
        }
        let shuffled = [e("avenc_h264_omx", hardware: false, rank: 128), e("openh264enc", hardware: false, rank: 64),
                        e("x264enc", hardware: false, rank: 256), e("vah264enc", hardware: true, rank: 0),
                        e("vaapih264enc", hardware: true, rank: 256), e("brokenhwh264enc", hardware: true, rank: 0),
                        e("zzzenc", hardware: false, rank: 256)]
        #expect(EncoderCatalog.ordered(shuffled, for: .h264).map(\.factory)
                == ["vaapih264enc", "brokenhwh264enc", "vah264enc", "x264enc", "openh264enc", "zzzenc", "avenc_h264_omx"])
    }

    @Test func hardwareIsTheKlasssWord() {
        #expect(EncoderCatalog.isHardware(klass: "Codec/Encoder/Video/Hardware"))
        #expect(!EncoderCatalog.isHardware(klass: "Codec/Encoder/Video"))
        #expect(!EncoderCatalog.isHardware(klass: "Codec/Encoder/Video/Hardwareish"))
    }
}

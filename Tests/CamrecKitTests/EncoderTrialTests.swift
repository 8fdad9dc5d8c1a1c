@testable import CamrecKit
import GStreamer
import Testing

/// The catalog and trials with GStreamer, and the fake hardware encoders
/// (Tests/Fixtures/FakeHardwareEncoder) loaded into this process: what the catalog lists,
/// what a trial proves, and `--encoder auto` choosing the working fake after the broken one.
@Suite struct EncoderTrialTests {
    static let size = FrameSize(width: 320, height: 240)
    static let rate = FrameRateValue(30)

    /// Loads the fake hardware encoders into this process's registry, once.
    static let fakesLoaded: Result<Void, FakeHardwareEncoder.BuildFailure> = {
        do {
            try Registry.loadPlugin(path: FakeHardwareEncoder.library)
            return .success(())
        } catch let failure as FakeHardwareEncoder.BuildFailure {
            return .failure(failure)
        } catch {
            return .failure(.init(description: "\(error)"))
        }
    }()

    @Test func theCatalogListsX264AsSoftwareH264AndJpegencAsMotionJPEG() throws {
        let h264 = EncoderCatalog.candidates(for: .h264)
        let x264 = try #require(h264.first { $0.factory == "x264enc" }, "\(h264.map(\.factory))")
        #expect(!x264.isHardware && x264.codec == .h264 && x264.plugin == "x264" && x264.rank == 256)
        #expect(x264.longName == "x264 H.264 Encoder")
        #expect(!h264.contains { $0.factory == "jpegenc" || $0.factory == "x265enc" })
        let mjpeg = EncoderCatalog.candidates(for: .mjpeg)
        let jpeg = try #require(mjpeg.first, "\(mjpeg.map(\.factory))")
        #expect(jpeg.factory == "jpegenc" && !jpeg.isHardware && jpeg.codec == .mjpeg, "camrec's choice comes first")
        #expect(!mjpeg.contains { $0.factory == "pngenc" || $0.factory == "x264enc" })
        // No decoder slips in (the HARDWARE factory-type bit would have brought hardware decoders).
        #expect(EncoderCatalog.allCandidates().allSatisfy { !$0.factory.contains("dec") })
    }

    @Test func x264EncodesTheTestFrames() {
        #expect(EncoderTrial.run(element: "x264enc bitrate=500 key-int-max=30", codec: .h264, size: Self.size, rate: Self.rate) == .works)
    }

    @Test func anEncoderThatTakesOnlyNV12GetsNV12() {
        // As vah264enc, whose sink takes NV12 only: the trial converts to what it takes.
        #expect(EncoderTrial.run(element: "capsfilter caps=video/x-raw,format=NV12 ! x264enc", codec: .h264,
                                 size: Self.size, rate: Self.rate) == .works)
    }

    @Test func jpegencWorksForMotionJPEGButNotAsAnH264Encoder() {
        #expect(EncoderTrial.run(element: "jpegenc", codec: .mjpeg, size: Self.size, rate: Self.rate) == .works)
        // The trial checks what came out, not only that something did.
        #expect(EncoderTrial.run(element: "jpegenc", codec: .h264, size: Self.size, rate: Self.rate)
                == .fails(reason: "it produced image/jpeg, not video/x-h264"))
    }

    @Test func aMissingElementFailsCleanly() {
        let outcome = EncoderTrial.run(element: "nosuchenc", codec: .h264, size: Self.size, rate: Self.rate)
        #expect(outcome.reason?.contains("'nosuchenc' is missing") == true, "\(outcome)")
    }

    @Test func aBadPropertyFailsCleanly() {
        let outcome = EncoderTrial.run(element: "x264enc no-such-property=1", codec: .h264, size: Self.size, rate: Self.rate)
        #expect(!outcome.works && outcome.reason?.isEmpty == false, "\(outcome)")
    }

    @Test func theBrokenFakeFailsWithItsReasonAndTheWorkingOneWorks() throws {
        try Self.fakesLoaded.get()
        let outcome = EncoderTrial.run(element: FakeHardwareEncoder.broken, codec: .h264, size: Self.size, rate: Self.rate)
        #expect(outcome.reason?.hasPrefix("no device") == true, "\(outcome)")
        #expect(EncoderTrial.run(element: "\(FakeHardwareEncoder.working) bitrate=800 keyframe-period=15", codec: .h264,
                                 size: Self.size, rate: Self.rate) == .works)
    }

    @Test func theCatalogSeesTheFakesAsHardwareBrokenFirst() throws {
        try Self.fakesLoaded.get()
        let h264 = EncoderCatalog.candidates(for: .h264)
        #expect(Array(h264.prefix(2).map(\.factory)) == [FakeHardwareEncoder.broken, FakeHardwareEncoder.working], "\(h264.map(\.factory))")
        #expect(h264.prefix(2).allSatisfy { $0.isHardware && $0.rank == 0 && $0.plugin == "fakehwenc" })
        #expect(!EncoderCatalog.candidates(for: .mjpeg).contains { $0.isHardware })
    }

    @Test func autoPicksTheWorkingFakeAndWarnsAboutTheBrokenOne() throws {
        try Self.fakesLoaded.get()
        let chosen = try EncoderSelection.select(request: .auto, codec: .h264, size: Self.size, rate: Self.rate)
        #expect(chosen.candidate.factory == FakeHardwareEncoder.working)
        #expect(chosen.reason == "fakehwh264enc: hardware, works (encoded 5 test frames)")
        #expect(chosen.warnings.count == 1)
        #expect(chosen.warnings.first?.hasPrefix("skipped hardware encoder brokenhwh264enc: it failed to start (no device") == true,
                "\(chosen.warnings)")
        #expect(chosen.warnings.first?.hasSuffix("; using fakehwh264enc") == true)
    }

    @Test func softwareAndNamedRequestsWithTheRealCatalog() throws {
        try Self.fakesLoaded.get()
        #expect(try EncoderSelection.select(request: .software, codec: .h264, size: Self.size, rate: Self.rate).candidate.factory == "x264enc")
        #expect(try EncoderSelection.select(request: .auto, codec: .mjpeg, size: Self.size, rate: Self.rate).candidate.factory == "jpegenc")
        let named = try EncoderSelection.select(request: .named("fakehwh264enc"), codec: .h264, size: Self.size, rate: Self.rate,
                                                describe: { "\($0.factory) bitrate=700" })
        #expect(named.element == "fakehwh264enc bitrate=700")
        func failure(_ request: EncoderRequest) -> CamrecError? {
            do {
                _ = try EncoderSelection.select(request: request, codec: .h264, size: Self.size, rate: Self.rate)
                return nil
            } catch { return error }
        }
        #expect(failure(.named("brokenhwh264enc"))?.status == .unavailable)
        #expect(failure(.named("brokenhwh264enc"))?.message.contains("no device") == true)
        #expect(failure(.named("vah264enc"))?.message.hasPrefix("encoder vah264enc is not available here: it needs a VA-API driver") == true)
        #expect(failure(.named("jpegenc"))?.status == .usage)
        #expect(failure(.named("videoconvert"))?.status == .usage)
    }
}

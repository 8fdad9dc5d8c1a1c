import MediaValues
import Testing
@testable import V4L2

@Suite struct FormatChooserTests {
    typealias F = Fixtures
    let webcam = Fixtures.webcamFormats

    func format(_ fourcc: String, compressed: Bool = false, _ sizes: FrameSizeOption...) -> PixelFormat {
        PixelFormat(fourcc: fourcc, description: fourcc, compressed: compressed, sizes: sizes)
    }

    // MARK: Requested size

    @Test func fullHD30PrefersMJPEGWhenRawIsSlow() throws {
        let choice = try FormatChooser.choose(from: webcam, size: FrameSize(width: 1920, height: 1080), rate: FrameRateValue(30))
        #expect(choice.fourcc == "MJPG")
        #expect(choice.size == FrameSize(width: 1920, height: 1080))
        #expect(choice.rate == FrameRateValue(30))
        #expect(choice.family == .mjpeg)
        #expect(choice.reason == "MJPG 1920x1080 at 30 fps: 1920x1080 as requested; YUYV reaches only 5 fps at 1920x1080")
    }

    @Test func requestedSizeWithoutRateWants30() throws {
        let choice = try FormatChooser.choose(from: webcam, size: FrameSize(width: 1920, height: 1080))
        #expect(choice.fourcc == "MJPG")
        #expect(choice.rate == FrameRateValue(30))
    }

    @Test func rawWinsWhenItReachesTheRate() throws {
        let choice = try FormatChooser.choose(from: webcam, size: FrameSize(width: 640, height: 480))
        #expect(choice.fourcc == "YUYV")
        #expect(choice.rate == FrameRateValue(30))  // not 15: the slowest rate that still reaches 30
        #expect(choice.reason == "YUYV 640x480 at 30 fps: 640x480 as requested; YUYV is raw, so nothing needs decoding")
    }

    @Test func lowRequestedRateMayUseRaw() throws {
        let choice = try FormatChooser.choose(from: webcam, size: FrameSize(width: 1280, height: 720), rate: FrameRateValue(10))
        #expect(choice.fourcc == "YUYV")
        #expect(choice.rate == FrameRateValue(10))
    }

    @Test func requestedSizeFallsBackToBestRateWhenNothingReaches30() throws {
        let rawOnly = [format("YUYV", F.size(1280, 720, F.rates(10, 5)), F.size(640, 480, F.rates(30)))]
        let choice = try FormatChooser.choose(from: rawOnly, size: FrameSize(width: 1280, height: 720))
        #expect(choice.fourcc == "YUYV")
        #expect(choice.rate == FrameRateValue(10))
        #expect(choice.reason.contains("10 fps is the fastest at 1280x720"))
    }

    @Test func h264IsLastResort() throws {
        let formats = [
            format("YUYV", F.size(640, 480, F.rates(30))),
            format("H264", compressed: true, F.size(3840, 2160, F.rates(30))),
        ]
        let choice = try FormatChooser.choose(from: formats, size: FrameSize(width: 3840, height: 2160))
        #expect(choice.fourcc == "H264")
        #expect(choice.reason.hasSuffix("no raw or MJPEG format offers 3840x2160"))
        // And where MJPEG also reaches the rate, MJPEG wins over H.264.
        let both = try FormatChooser.choose(from: webcam, size: FrameSize(width: 1280, height: 720))
        #expect(both.fourcc == "MJPG")
    }

    // MARK: No requested size

    @Test func defaultIs720pAt30() throws {
        let choice = try FormatChooser.choose(from: webcam)
        #expect(choice.fourcc == "MJPG")
        #expect(choice.size == FrameSize(width: 1280, height: 720))
        #expect(choice.rate == FrameRateValue(30))
        #expect(choice.reason == "MJPG 1280x720 at 30 fps: 1280x720 is the default size; YUYV reaches only 10 fps at 1280x720")
    }

    @Test func without720pTakesLargestUnderTheCapThatReaches30() throws {
        let formats = [
            format("YUYV", F.size(640, 480, F.rates(30)), F.size(1024, 768, F.rates(30)), F.size(1280, 960, F.rates(15))),
            format("MJPG", compressed: true, F.size(800, 600, F.rates(30)), F.size(2560, 1440, F.rates(30))),
        ]
        let choice = try FormatChooser.choose(from: formats)
        #expect(choice.fourcc == "YUYV")
        #expect(choice.size == FrameSize(width: 1024, height: 768))
        #expect(choice.reason.contains("1024x768 is the largest size up to 1920x1080 that reaches 30 fps"))
    }

    @Test func capsAt1080p() throws {
        let formats = [format("MJPG", compressed: true, F.size(1920, 1080, F.rates(30)), F.size(3840, 2160, F.rates(30)))]
        #expect(try FormatChooser.choose(from: formats).size == FrameSize(width: 1920, height: 1080))
    }

    @Test func cameraWithOnlyLargeSizesGetsItsSmallest() throws {
        let formats = [format("MJPG", compressed: true, F.size(3840, 2160, F.rates(30)), F.size(2560, 1440, F.rates(30)))]
        let choice = try FormatChooser.choose(from: formats)
        #expect(choice.size == FrameSize(width: 2560, height: 1440))
        #expect(choice.rate == FrameRateValue(30))
    }

    @Test func slowCameraFallsBackToItsBestRate() throws {
        let slow = [format("YUYV", F.size(640, 480, F.rates(15, 5)), F.size(1280, 720, F.rates(10)))]
        let choice = try FormatChooser.choose(from: slow)
        #expect(choice.size == FrameSize(width: 640, height: 480))
        #expect(choice.rate == FrameRateValue(15))
        #expect(choice.reason.contains("no format reaches 30 fps, so the fastest rate available is used"))
    }

    @Test func slowCameraStillPrefers720pAtTheFallbackRate() throws {
        let slow = [format("YUYV", F.size(640, 480, F.rates(15)), F.size(1280, 720, F.rates(15)))]
        let choice = try FormatChooser.choose(from: slow)
        #expect(choice.size == FrameSize(width: 1280, height: 720))
        #expect(choice.rate == FrameRateValue(15))
    }

    @Test func requestedRateWithoutSize() throws {
        let formats = [format("MJPG", compressed: true, F.size(640, 480, F.rates(60, 30)), F.size(1280, 720, F.rates(30)))]
        let choice = try FormatChooser.choose(from: formats, rate: FrameRateValue(60))
        #expect(choice.size == FrameSize(width: 640, height: 480))
        #expect(choice.rate == FrameRateValue(60))
    }

    // MARK: Rates and tie-breaks

    @Test func choosesSlowestRateThatReachesTheWish() throws {
        let fast = [format("YUYV", F.size(1280, 720, F.rates(60, 30, 15)))]
        #expect(try FormatChooser.choose(from: fast).rate == FrameRateValue(30))
        let onlySixty = [format("YUYV", F.size(1280, 720, F.rates(60)))]
        #expect(try FormatChooser.choose(from: onlySixty).rate == FrameRateValue(60))
        #expect(try FormatChooser.choose(from: fast, rate: FrameRateValue(25)).rate == FrameRateValue(30))
    }

    @Test func ntscRateCountsAs30() throws {
        let ntsc = FrameRateValue(numerator: 30000, denominator: 1001)
        let formats = [format("YUYV", FrameSizeOption(width: 1280, height: 720, rates: [ntsc]))]
        let choice = try FormatChooser.choose(from: formats, size: nil, rate: FrameRateValue(30))
        #expect(choice.rate == ntsc)
        #expect(choice.rate.fraction == "30000/1001")
    }

    @Test func rawPreferenceOrderThenEnumerationOrder() throws {
        let size = F.size(1280, 720, F.rates(30))
        #expect(try FormatChooser.choose(from: [format("YUYV", size), format("NV12", size)]).fourcc == "NV12")
        #expect(try FormatChooser.choose(from: [format("MJPG", compressed: true, size), format("YUYV", size)]).fourcc == "YUYV")
        // Two formats outside the raw preference list (both MJPEG family): the driver's first wins.
        #expect(try FormatChooser.choose(from: [format("JPEG", compressed: true, size), format("MJPG", compressed: true, size)]).fourcc == "JPEG")
    }

    @Test func ignoresUnsupportedFormatsAndSizesWithoutRates() throws {
        let formats = [
            format("Z16 ", F.size(1280, 720, F.rates(30))),
            format("YUYV", F.size(1280, 720, []), F.size(640, 480, F.rates(30))),
        ]
        let choice = try FormatChooser.choose(from: formats)
        #expect(choice.fourcc == "YUYV")
        #expect(choice.size == FrameSize(width: 640, height: 480))
    }

    // MARK: Errors

    @Test func unsupportedSizeListsNearestSizes() {
        #expect(throws: FormatChoiceError.self) { try FormatChooser.choose(from: webcam, size: FrameSize(width: 1000, height: 700)) }
        do {
            _ = try FormatChooser.choose(from: webcam, size: FrameSize(width: 1000, height: 700))
        } catch {
            #expect(error.message == "the camera cannot capture 1000x700; nearest sizes: 1280x720 (30 fps MJPG, 30 fps H264, 10 fps YUYV), 640x480 (30 fps YUYV, 30 fps MJPG), 320x240 (30 fps YUYV)")
        }
    }

    @Test func unreachableRateAtSizeSaysWhatIsPossible() {
        do {
            _ = try FormatChooser.choose(from: webcam, size: FrameSize(width: 1920, height: 1080), rate: FrameRateValue(60))
            Issue.record("expected an error")
        } catch {
            #expect(error == .rateUnreachable(requested: FrameRateValue(60), size: FrameSize(width: 1920, height: 1080),
                                              available: "at 1920x1080 it reaches 30 fps MJPG, 30 fps H264, 5 fps YUYV"))
            #expect(error.message == "the camera cannot capture 1920x1080 at 60 fps; at 1920x1080 it reaches 30 fps MJPG, 30 fps H264, 5 fps YUYV")
        }
        do {
            _ = try FormatChooser.choose(from: webcam, size: FrameSize(width: 1920, height: 1080), rate: FrameRateValue(15))
            _ = try FormatChooser.choose(from: webcam, size: FrameSize(width: 1280, height: 720), rate: FrameRateValue(30))
        } catch {
            Issue.record("unexpected \(error)")
        }
        let mixed = [format("YUYV", F.size(640, 480, F.rates(60)), F.size(1280, 720, F.rates(30)))]
        do {
            _ = try FormatChooser.choose(from: mixed, size: FrameSize(width: 1280, height: 720), rate: FrameRateValue(60))
            Issue.record("expected an error")
        } catch {
            #expect(error.message == "the camera cannot capture 1280x720 at 60 fps; at 1280x720 it reaches 30 fps YUYV; 60 fps is available at 640x480")
        }
    }

    @Test func unreachableRateAnywhere() {
        do {
            _ = try FormatChooser.choose(from: webcam, rate: FrameRateValue(120))
            Issue.record("expected an error")
        } catch {
            #expect(error.message.hasPrefix("the camera cannot capture at 120 fps; its fastest is 30 fps, at 1920x1080 ("))
            #expect(!error.message.contains("\n"))
        }
    }

    @Test func nothingRecordable() {
        do {
            _ = try FormatChooser.choose(from: [format("Z16 ", F.size(640, 480, F.rates(30))), format("HEVC", compressed: true, F.size(640, 480, F.rates(30)))])
            Issue.record("expected an error")
        } catch {
            #expect(error == .noUsableFormats(offered: ["Z16", "HEVC"]))
            #expect(error.message.contains("it offers Z16, HEVC"))
        }
        do {
            _ = try FormatChooser.choose(from: [])
            Issue.record("expected an error")
        } catch {
            #expect(error.message == "the camera reports no video formats with frame sizes and rates")
        }
    }
}

/// `prefer`: the camera's own H.264 where it can be stored as it comes (`--codec auto`).
@Suite struct FormatChooserPreferenceTests {
    let webcam = Fixtures.webcamFormats

    @Test func preferredH264WinsWhereItReachesTheRate() throws {
        let choice = try FormatChooser.choose(from: webcam, prefer: [.h264])
        #expect(choice.fourcc == "H264")
        #expect(choice.size == FrameSize(width: 1280, height: 720))
        #expect(choice.rate == FrameRateValue(30))
        #expect(choice.reason.contains("the camera's own H.264, stored as they come"), "\(choice.reason)")
    }

    @Test func preferenceNeverChangesTheSizeOrRate() throws {
        // No H.264 at 640x480: the size asked for wins, and raw is taken as without a preference.
        let choice = try FormatChooser.choose(from: webcam, size: FrameSize(width: 640, height: 480), prefer: [.h264])
        #expect(choice.fourcc == "YUYV")
        #expect(choice.reason == "YUYV 640x480 at 30 fps: 640x480 as requested; YUYV is raw, so nothing needs decoding")
    }

    @Test func laterPreferencesApplyWhenTheFirstIsMissing() throws {
        let choice = try FormatChooser.choose(from: webcam, size: FrameSize(width: 640, height: 480), prefer: [.h264, .mjpeg])
        #expect(choice.fourcc == "MJPG")
        #expect(choice.reason.contains("the camera's own JPEG frames"), "\(choice.reason)")
    }
}

@testable import CamrecKit
@testable import Picture
import Foundation
import Testing

/// `--mask` and `--mask-image` without GStreamer: the rectangles as typed, their pixels in
/// a picture, the refusals, and where the pipeline puts camrecmask.
@Suite struct PrivacyMaskTests {
    static let hd = FrameSize(width: 1280, height: 720)

    func rectangle(_ text: String) throws -> MaskRectangle { try MaskRectangle.parse(text) }

    @Test func pixelsAndPercentagesParse() throws {
        #expect(try rectangle("10,20,300,200").pixels(in: Self.hd) == PixelRect(x: 10, y: 20, width: 300, height: 200))
        #expect(try rectangle("0,0,25%,100%").pixels(in: Self.hd) == PixelRect(x: 0, y: 0, width: 320, height: 720))
        #expect(try rectangle("50%,50%,50%,50%").pixels(in: Self.hd) == PixelRect(x: 640, y: 360, width: 640, height: 360))
        // Mixed, and decimals: 12.5% of 1280 is 160.
        #expect(try rectangle("12.5%,10,100,10%").pixels(in: Self.hd) == PixelRect(x: 160, y: 10, width: 100, height: 72))
        #expect(try rectangle("75%,0,25%,40%").description == "75%,0,25%,40%")
    }

    /// Percentages that fall between pixels cover every pixel they touch.
    @Test func percentagesRoundOutwards() throws {
        let odd = FrameSize(width: 101, height: 51)
        // 10% of 101 is 10.1: from 10 to 20.2 → 10..<21.
        #expect(try rectangle("10%,10%,10%,10%").pixels(in: odd) == PixelRect(x: 10, y: 5, width: 11, height: 6))
    }

    @Test(arguments: ["", "1,2,3", "1,2,3,4,5", "a,0,10,10", "-1,0,10,10", "0,0,10,10px", "0,0,101%,10", "0,0,%,10",
                      "0, 0,10,10", "0,0,0,10", "0,0,10,0%", "60%,0,50%,10", "0,90%,10,20%", "0,0,1e3,10", "0,0,٣,10"])
    func badRectanglesAreUsageErrors(text: String) {
        #expect(throws: CamrecError.self) { try MaskRequest.parse(masks: [text], image: nil) }
        do {
            _ = try MaskRequest.parse(masks: [text], image: nil)
        } catch {
            #expect(error.status == .usage && error.message.hasPrefix("--mask"), "\(text): \(error.message)")
        }
    }

    @Test func pixelRectanglesMustLieInsideThePicture() throws {
        let mask = PrivacyMask(rectangles: [try rectangle("1200,0,100,100")])
        #expect(throws: CamrecError.self) { try mask.check(frame: Self.hd) }
        do {
            try mask.check(frame: Self.hd, camera: "camera 2 (/dev/video2): ")
        } catch {
            #expect(error.status == .usage)
            #expect(error.message.contains("1280x720") && error.message.contains("camera 2"), "\(error.message)")
        }
        // The same rectangle fits a turned 1080p picture? No: 1080 wide, still outside; 1920 wide fits.
        try mask.check(frame: FrameSize(width: 1920, height: 1080))
        try PrivacyMask(rectangles: [try rectangle("1180,620,100,100")]).check(frame: Self.hd)
    }

    @Test func codecCopyWithAMaskIsRefusedByThePlanner() throws {
        let stills = try StillSettings.resolve(pattern: nil, format: nil, every: nil, moviePath: "out.mp4")
        var request = RecordingRequest(output: "out.mp4", devices: [], stills: stills)
        request.codecCopy = true
        request.masked = true
        do {
            try RecordingPlanner.check(request)
            Issue.record("--codec copy with a mask was planned")
        } catch {
            #expect(error.status == .usage)
            #expect(error.message.contains("--codec copy") && error.message.contains("--codec h264"), "\(error.message)")
        }
        request.codecCopy = false
        try RecordingPlanner.check(request)
    }

    @Test func theRecordCommandsArgumentsAskThePlannerToRefuseCopy() throws {
        var picture = try PictureRequest.parse(rotate: nil, flip: nil, mirror: false, overlay: nil, overlayPosition: nil,
                                               overlayImage: nil, overlayImagePosition: nil)
        picture.mask = try MaskRequest.parse(masks: ["0,0,10,10"], image: nil)
        var arguments = RecordArguments(camera: CameraRequest(devices: []), picture: picture, output: "out.mkv")
        arguments.codec = "copy"
        let job = try arguments.job(environment: [:])
        #expect(job.request.masked && job.request.codecCopy)
        #expect(throws: CamrecError.self) { try RecordingPlanner.check(job.request) }
    }

    static let mjpeg = CameraFormat(fourcc: "MJPG", caps: "image/jpeg,width=1280,height=720,framerate=30/1",
                                    size: hd, rate: FrameRateValue(numerator: 30, denominator: 1), decoding: .jpeg, reason: "")

    func config(_ picture: PictureSettings, motion: Bool = false) -> RecordConfig {
        var config = RecordConfig(source: .camera(path: "/dev/video0", format: Self.mjpeg), size: Self.hd,
                                  rate: FrameRateValue(numerator: 30, denominator: 1), maxDuration: .seconds(3),
                                  outputPath: "out.mp4", container: .mp4, overwrite: false, encoder: EncoderSettings())
        config.picture = picture
        if motion { config.motion = MotionSettings() }
        return config
    }

    /// An MJPEG camera's frames are decoded before the tee (stills show the mask), the mask
    /// comes after the turn (in the turned picture's pixels) and before the overlays.
    @Test func theMaskIsBeforeTheTeeAfterTheTurnBeforeTheText() throws {
        let mask = PrivacyMask(rectangles: [try rectangle("0,0,100,50%"), try rectangle("10,10,20,20")])
        let picture = PictureSettings(orientation: Orientation(rotation: .clockwise), text: try OverlayText("x"), mask: mask)
        let line = try RecordPipeline(config: config(picture)).description(location: "x.mp4")
        // Turned, the picture is 720x1280: 50% of its height is 640.
        #expect(line.contains("framerate=30/1 ! jpegdec ! videoconvert ! video/x-raw,format=I420,colorimetry=bt601 ! camrecflip name=orient method=90r ! camrecmask name=mask rectangles=\"0,0,100,640 10,10,20,20\" ! textoverlay name=overlay"), "\(line)")
        #expect(line.contains(" ! tee name=t "))
        #expect(!line.contains("tee name=scene"), "no motion: no tee before the mask")
        let printed = try RecordPipeline(config: config(picture)).commandLine()
        #expect(printed.contains("camrecmask name=mask rectangles='0,0,100,640 10,10,20,20'"), "\(printed)")
    }

    /// Motion detection takes the picture before the mask; every other branch after it.
    @Test func motionSeesThePictureBeforeTheMask() throws {
        let picture = PictureSettings(mask: PrivacyMask(rectangles: [try rectangle("0,0,50%,50%")]))
        let line = try RecordPipeline(config: config(picture, motion: true)).description(location: "x.mp4")
        #expect(line.contains("! tee name=scene ! camrecmask name=mask rectangles=\"0,0,640,360\" ! tee name=t "), "\(line)")
        #expect(line.contains("scene. ! queue name=motionqueue"), "\(line)")
        #expect(!line.contains("t. ! queue name=motionqueue"))
        // Without a mask, motion stays on the camera's tee.
        let plain = try RecordPipeline(config: config(.unchanged, motion: true)).description(location: "x.mp4")
        #expect(plain.contains("t. ! queue name=motionqueue") && !plain.contains("scene"))
    }

    @Test func aMaskNeedsDecodedFrames() {
        var settings = RunSettings(maxDuration: nil, container: .mp4, encoding: EncodingRequest())
        settings.picture.mask = PrivacyMask(rectangles: [MaskRectangle(x: .pixels(0), y: .pixels(0), width: .pixels(1), height: .pixels(1))])
        #expect(settings.needsDecoding(composes: false) == ["--mask and --mask-image black out parts of the picture"])
        #expect(settings.picture.isActive && !settings.picture.changesPicture)
    }

    /// With --layout, each camera is masked in its own pixels in its own branch (so its own
    /// stills are masked too); the canvas is not masked again.
    @Test func aCanvasMasksEveryCameraInItsOwnBranch() throws {
        let yuyv = CameraFormat(fourcc: "YUYV", caps: "video/x-raw,format=YUY2,width=640,height=480,framerate=30/1",
                                size: FrameSize(width: 640, height: 480), rate: FrameRateValue(numerator: 30, denominator: 1),
                                decoding: .none, reason: "")
        let mask = PrivacyMask(rectangles: [try rectangle("0,0,50%,10")])
        let composition = Composition(layout: .stacked, canvas: CanvasLayout.defaultCanvas,
                                      cameras: [("/dev/video0", Self.mjpeg), ("/dev/video2", yuyv)],
                                      rate: FrameRateValue(numerator: 30, denominator: 1), mask: mask)
        let first = composition.branch(0, path: "/dev/video0", quote: { $0 }, into: nil)
        let second = composition.branch(1, path: "/dev/video2", quote: { $0 }, into: nil)
        #expect(first.contains("! jpegdec name=decode1 ! camrecmask name=mask1 rectangles=0,0,640,10 ! tee name=whole1"), "\(first)")
        #expect(second.contains("leaky=downstream ! camrecmask name=mask2 rectangles=0,0,320,10 ! tee name=whole2"), "\(second)")
        #expect(composition.branchElements(0).contains("mask1"))
    }

    /// A mask image's dark opaque pixels, as rectangles: runs merged down the rows.
    @Test func aMaskImageBecomesRectangles() throws {
        // 8x4: a 2x2 black square at (1,1), a black row at the bottom from x=4, a transparent
        // black pixel (not masked) and a mid-light grey one (not masked).
        var rgba = [UInt8](repeating: 255, count: 8 * 4 * 4)
        func set(_ x: Int, _ y: Int, _ value: UInt8, alpha: UInt8 = 255) {
            let at = (y * 8 + x) * 4
            (rgba[at], rgba[at + 1], rgba[at + 2], rgba[at + 3]) = (value, value, value, alpha)
        }
        for (x, y) in [(1, 1), (2, 1), (1, 2), (2, 2)] { set(x, y, 0) }
        for x in 4..<8 { set(x, 3, 20) }
        set(6, 0, 0, alpha: 0)
        set(7, 0, 140)
        let rectangles = try #require(MaskImage.rectangles(rgba: rgba, width: 8, height: 4))
        let pixels = rectangles.compactMap { $0.pixels(in: FrameSize(width: 8, height: 4)) }
        #expect(pixels == [PixelRect(x: 1, y: 1, width: 2, height: 2), PixelRect(x: 4, y: 3, width: 4, height: 1)])
        // Scaled to a picture twice the size, each pixel covers two.
        let doubled = rectangles.compactMap { $0.pixels(in: FrameSize(width: 16, height: 8)) }
        #expect(doubled == [PixelRect(x: 2, y: 2, width: 4, height: 4), PixelRect(x: 8, y: 6, width: 8, height: 2)])
    }

    @Test func missingAndNonPNGMaskImagesAreRefused() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("camrec-mask-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let missing = MaskRequest(imagePath: folder.appendingPathComponent("none.png").path)
        #expect(throws: CamrecError.self) { try missing.resolve() }
        do { _ = try missing.resolve() } catch { #expect(error.status == .noCamera && error.message.contains("--mask-image")) }
        let text = folder.appendingPathComponent("mask.png")
        try Data("not a picture".utf8).write(to: text)
        do {
            _ = try MaskRequest(imagePath: text.path).resolve()
            Issue.record("a text file was read as a mask")
        } catch {
            #expect(error.status == .invalidInput && error.message.contains("--mask-image"), "\(error.message)")
        }
        #expect(throws: CamrecError.self) { try MaskRequest.parse(masks: [], image: "") }
    }
}

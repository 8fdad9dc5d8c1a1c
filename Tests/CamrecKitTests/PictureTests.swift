@testable import CamrecKit
@testable import Picture
@testable import Trim
import Foundation
import MediaValues
import Testing

/// Orientation: every mix of --rotate and --flip is one videoflip direction, checked by
/// moving the cells of a small grid both ways (rotation first, then the flip).
@Suite struct OrientationTests {
    typealias Grid = [[Int]]

    /// A 2×3 grid (2 rows, 3 columns) with distinct cells.
    static let grid: Grid = [[1, 2, 3], [4, 5, 6]]

    static func clockwise(_ g: Grid) -> Grid {
        let (rows, columns) = (g.count, g[0].count)
        return (0..<columns).map { r in (0..<rows).map { c in g[rows - 1 - c][r] } }
    }

    static func mirror(_ g: Grid) -> Grid { g.map { $0.reversed() } }
    static func upsideDown(_ g: Grid) -> Grid { g.reversed() }
    static func transpose(_ g: Grid) -> Grid { (0..<g[0].count).map { r in g.map { $0[r] } } }

    /// What videoflip does for each `video-direction` (GStreamer's documentation).
    static func videoflip(_ nick: String, _ g: Grid) -> Grid {
        switch nick {
        case "identity": g
        case "90r": clockwise(g)
        case "180": clockwise(clockwise(g))
        case "90l": clockwise(clockwise(clockwise(g)))
        case "horiz": mirror(g)
        case "vert": upsideDown(g)
        case "ul-lr": transpose(g)
        case "ur-ll": clockwise(clockwise(transpose(g)))
        default: []
        }
    }

    @Test(arguments: Orientation.Rotation.allCases, [nil] + Orientation.Flip.allCases.map { Optional($0) })
    func oneVideoflipDirectionDoesRotationThenFlip(rotation: Orientation.Rotation, flip: Orientation.Flip?) {
        var expected = Self.grid
        for _ in 0..<(rotation.rawValue / 90) { expected = Self.clockwise(expected) }
        switch flip {
        case .horizontal?: expected = Self.mirror(expected)
        case .vertical?: expected = Self.upsideDown(expected)
        case nil: break
        }
        let orientation = Orientation(rotation: rotation, flip: flip)
        #expect(Self.videoflip(orientation.videoDirection, Self.grid) == expected, "\(orientation)")
        #expect(orientation.isIdentity == (rotation == .none && flip == nil))
        let size = orientation.outputSize(FrameSize(width: 1280, height: 720))
        #expect(size == (rotation.rawValue % 180 == 90 ? FrameSize(width: 720, height: 1280) : FrameSize(width: 1280, height: 720)))
    }

    @Test func rotationAndFlipParse() throws {
        #expect(try Orientation.parseRotation("90") == .clockwise)
        #expect(try Orientation.parseRotation("270°") == .counterclockwise)
        #expect(try Orientation.parseRotation("180deg") == .upsideDown)
        #expect(try Orientation.parseFlip("Horizontal") == .horizontal)
        #expect(try Orientation.parseFlip("v") == .vertical)
        #expect(throws: ValueError.self) { try Orientation.parseRotation("45") }
        #expect(throws: ValueError.self) { try Orientation.parseRotation("-90") }
        #expect(throws: ValueError.self) { try Orientation.parseFlip("diagonal") }
    }
}

@Suite struct OverlayTextTests {
    func frame(_ seconds: Int64, _ nanoseconds: Int64 = 0, index: Int = 0, elapsed: UInt64 = 0,
               device: String = "/dev/video0") -> OverlayText.Frame {
        OverlayText.Frame(captureTime: WallTime(seconds: seconds, nanoseconds: nanoseconds), index: index,
                          elapsed: elapsed, device: device)
    }

    @Test func fieldsAreFilledIn() throws {
        let text = try OverlayText("{device} #{frame} {elapsed} %s")
        let line = text.render(frame(1_700_000_000, 250_000_000, index: 41, elapsed: 3_723_900_000_000))
        #expect(line == "/dev/video0 #41 01:02:03 1700000000")
        #expect(text.varies)
    }

    @Test func strftimeUsesTheCaptureSecond() throws {
        // %s (seconds since the epoch) does not depend on the time zone.
        let text = try OverlayText("t=%s")
        #expect(text.render(frame(99, 999_999_999)) == "t=99")
        #expect(text.render(frame(100, 0)) == "t=100")
    }

    @Test func devicesWithPercentSignsAreNotStrftimeFields() throws {
        #expect(try OverlayText("{device}").render(frame(0, device: "cam%Y")) == "cam%Y")
    }

    @Test func otherBracesAreText() throws {
        let text = try OverlayText("{ x } {} {frame")
        #expect(text.render(frame(0)) == "{ x } {} {frame")
        #expect(!(try OverlayText("plain")).varies)
    }

    @Test func misspeltFieldsAndEmptyTextAreRefused() {
        #expect(throws: ValueError.self) { try OverlayText("{frames}") }
        #expect(throws: ValueError.self) { try OverlayText("") }
    }

    @Test func elapsedClock() {
        #expect(OverlayText.clock(nanoseconds: 0) == "00:00:00")
        #expect(OverlayText.clock(nanoseconds: 59_999_999_999) == "00:00:59")
        #expect(OverlayText.clock(nanoseconds: 3_600_000_000_000) == "01:00:00")
    }

    @Test func longStrftimeResultsAreWhole() throws {
        let format = String(repeating: "%Y", count: 200)
        #expect(try OverlayText(format).render(frame(0)).count == 800)
    }
}

/// The capture moment comes from the frame's timestamp, never from when it is drawn.
@Suite struct CaptureTimeTests {
    @Test func frameTimeIsBaseTimePlusRunningTimeOnTheWallClock() {
        // Pipeline clock at 106.5 s while the wall clock reads 1000.0 s: a frame taken at
        // clock time 100 s + 5 s was taken 1.5 s ago.
        let taken = CaptureTime.of(runningTime: 5_000_000_000, baseTime: 100_000_000_000,
                                   clockNow: 106_500_000_000, wallNow: WallTime(seconds: 1000, nanoseconds: 0))
        #expect(taken == WallTime(seconds: 998, nanoseconds: 500_000_000))
    }

    @Test func drawingLaterGivesTheSameTime() {
        let early = CaptureTime.of(runningTime: 33_000_000, baseTime: 7, clockNow: 40_000_000,
                                   wallNow: WallTime(seconds: 50, nanoseconds: 900_000_000))
        // The same frame drawn 0.25 s later (held in a queue): both clocks moved on.
        let late = CaptureTime.of(runningTime: 33_000_000, baseTime: 7, clockNow: 290_000_000,
                                  wallNow: WallTime(seconds: 51, nanoseconds: 150_000_000))
        #expect(early == late)
        #expect(early == WallTime(seconds: 50, nanoseconds: 893_000_007))
    }

    @Test func aFrameStampedAheadOfTheClockIsStillPlaced() {
        let taken = CaptureTime.of(runningTime: 2_000_000_000, baseTime: 0, clockNow: 1_000_000_000,
                                   wallNow: WallTime(seconds: 10, nanoseconds: 0))
        #expect(taken == WallTime(seconds: 11, nanoseconds: 0))
    }

    @Test func wallTimeNormalises() {
        #expect(WallTime(seconds: 5, nanoseconds: -1) == WallTime(seconds: 4, nanoseconds: 999_999_999))
        #expect(WallTime(seconds: 5, nanoseconds: 2_000_000_001) == WallTime(seconds: 7, nanoseconds: 1))
    }
}

private struct Offsets: Equatable { var x, y: Int }
private func == (lhs: (x: Int, y: Int), rhs: Offsets) -> Bool { lhs.x == rhs.x && lhs.y == rhs.y }

@Suite struct OverlayImageTests {
    static func png(width: Int, height: Int) -> [UInt8] {
        func word(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 255), UInt8(v >> 16 & 255), UInt8(v >> 8 & 255), UInt8(v & 255)] }
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + word(13) + Array("IHDR".utf8) + word(width) + word(height)
            + [8, 6, 0, 0, 0] + word(0)
    }

    @Test func sizeComesFromTheHeader() {
        #expect(OverlayImage.pngSize(Self.png(width: 64, height: 32)) == FrameSize(width: 64, height: 32))
        #expect(OverlayImage.pngSize(Array("GIF89a and more bytes here..".utf8)) == nil)
        #expect(OverlayImage.pngSize(Array(Self.png(width: 64, height: 32).prefix(20))) == nil)
        #expect(OverlayImage.pngSize(Self.png(width: 0, height: 32)) == nil)
    }

    @Test func missingAndNonPNGFilesAreInvalidInput() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("camrec-overlay-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let text = folder.appendingPathComponent("logo.png")
        try Data("not a picture".utf8).write(to: text)
        for path in [folder.appendingPathComponent("none.png").path, text.path, folder.path] {
            do {
                _ = try OverlayImage.load(path, position: .topRight)
                Issue.record("\(path) was accepted")
            } catch {
                #expect(error.kind == .invalidInput)
                #expect(error.status.rawValue == 65)
                #expect(error.message.hasPrefix("--overlay-image"))
            }
        }
        let good = folder.appendingPathComponent("good.png")
        try Data(Self.png(width: 10, height: 20)).write(to: good)
        let image = try OverlayImage.load(good.path, position: .bottom)
        #expect(image.size == FrameSize(width: 10, height: 20))
        #expect(image.path.hasPrefix("/"))
    }

    @Test func positionsPlaceTheImageFromTheEdges() throws {
        let (image, frame) = (FrameSize(width: 100, height: 50), FrameSize(width: 1280, height: 720))
        #expect(OverlayPosition.topLeft.imageOffsets(image: image, frame: frame, margin: 15) == Offsets(x: 15, y: 15))
        #expect(OverlayPosition.bottomRight.imageOffsets(image: image, frame: frame, margin: 15) == Offsets(x: -15, y: -15))
        #expect(OverlayPosition.top.imageOffsets(image: image, frame: frame, margin: 15) == Offsets(x: 590, y: 15))
        #expect(OverlayPosition.bottom.imageOffsets(image: image, frame: frame, margin: 15) == Offsets(x: 590, y: -15))
        #expect(throws: ValueError.self) { try OverlayPosition.parse("middle") }
        #expect(try OverlayPosition.parse("BR") == .bottomRight)
    }
}

@Suite struct PictureFragmentTests {
    static let size = FrameSize(width: 640, height: 480)
    static let mjpeg = CameraFormat(fourcc: "MJPG", caps: "image/jpeg,width=640,height=480,framerate=30/1",
                                    size: size, rate: FrameRateValue(numerator: 30, denominator: 1), decoding: .jpeg, reason: "")

    func config(_ picture: PictureSettings, source: VideoSource = .camera(path: "/dev/video0", format: mjpeg)) -> RecordConfig {
        var config = RecordConfig(source: source, size: Self.size, rate: FrameRateValue(numerator: 30, denominator: 1),
                                  maxDuration: .seconds(3), outputPath: "out.mp4", container: .mp4, overwrite: false,
                                  encoder: EncoderSettings())
        config.picture = picture
        return config
    }

    @Test func nothingAskedChangesNothing() throws {
        #expect(PictureSettings.unchanged.fragment(cameraSize: Self.size, printed: false) { $0 } == "")
        let line = try RecordPipeline(config: config(.unchanged)).description(location: "x.mp4")
        #expect(line.contains("image/jpeg,width=640,height=480,framerate=30/1 ! tee name=t"), "stills stay the camera's JPEGs")
    }

    @Test func pictureGoesBeforeTheTeeAndAnMJPEGCameraIsDecodedThere() throws {
        let text = try OverlayText("%H:%M:%S {frame}")
        let picture = PictureSettings(orientation: Orientation(rotation: .clockwise), text: text, textPosition: .bottomRight)
        let line = try RecordPipeline(config: config(picture)).description(location: "x.mp4")
        #expect(line.contains("framerate=30/1 ! jpegdec ! videoconvert ! video/x-raw,format=I420,colorimetry=bt601 ! camrecflip name=orient method=90r ! textoverlay name=overlay text=\"\" "))
        #expect(line.contains("halignment=right valignment=bottom"))
        // 480×640 once turned: a 24th of 480 is 20 px.
        #expect(line.contains("font-desc=\"DejaVu Sans Mono Bold 20px\""))
        #expect(line.contains("auto-resize=false ") && line.contains(" ! tee name=t "))
        #expect(!line.contains("max-size-time=2000000000 ! jpegdec"), "decoded once, before the tee")
        let printed = try RecordPipeline(config: config(picture)).commandLine()
        #expect(printed.contains("textoverlay name=overlay text='%H:%M:%S {frame}' font-desc='DejaVu Sans Mono Bold 20px'"))
    }

    @Test func fixedTextIsWrittenIntoThePipeline() throws {
        let picture = PictureSettings(text: try OverlayText("Camera \"A\""))
        let line = try RecordPipeline(config: config(picture, source: .testPattern)).description(location: "x.mp4")
        #expect(line.contains("videotestsrc is-live=true pattern=smpte horizontal-speed=4 name=src ! video/x-raw,width=640,height=480,framerate=30/1 ! videoconvert ! video/x-raw,format=I420 ! textoverlay name=overlay text=\"Camera \\\"A\\\"\""))
    }

    @Test func imageIsPlacedAndTextDrawnOverIt() throws {
        let image = OverlayImage(path: "/tmp/logo.png", size: FrameSize(width: 40, height: 20), position: .top)
        let picture = PictureSettings(orientation: Orientation(flip: .horizontal), text: try OverlayText("x"), image: image)
        let fragment = picture.fragment(cameraSize: Self.size, printed: true) { "<\($0)>" }
        #expect(fragment.hasPrefix("! camrecflip name=orient method=horiz ! gdkpixbufoverlay name=logo location=</tmp/logo.png> offset-x=300 offset-y=10 ! textoverlay"))
        #expect(picture.elements == ["gdkpixbufoverlay", "textoverlay"])   // camrecflip is built in
    }

    @Test func aTemplateWithoutPictureWorksUntilThePictureIsChanged() throws {
        let old = PipelineTemplate(text: PipelineTemplate.record.text.replacingOccurrences(of: "{picture}", with: ""))
        _ = try RecordPipeline(config: config(.unchanged), template: old).description(location: "x.mp4")
        let turned = PictureSettings(orientation: Orientation(rotation: .upsideDown))
        #expect(throws: TemplateError.self) { try RecordPipeline(config: config(turned), template: old).description(location: "x.mp4") }
    }
}

/// The hook for recordings that copy a camera's frames: the orientation as an MP4 display matrix.
@Suite struct DisplayMatrixTests {
    static let size = FrameSize(width: 1280, height: 720)

    /// ffmpeg's mov muxer's matrix for a display rotation (a, b, c, d, x, y as integers).
    func words(_ matrix: [UInt8]) -> [Int32] {
        stride(from: 0, to: 36, by: 4).map { i in
            Int32(bitPattern: UInt32(matrix[i]) << 24 | UInt32(matrix[i + 1]) << 16 | UInt32(matrix[i + 2]) << 8 | UInt32(matrix[i + 3]))
        }
    }

    @Test func identityIsTheUsualMatrix() {
        #expect(Orientation.identity.displayMatrix(for: Self.size) == TrackMatrix.identity)
    }

    @Test func rotationsMatchFFmpegsMatrices() {
        let one: Int32 = 0x10000, w = Int32(1280) << 16, h = Int32(720) << 16, unit: Int32 = 0x4000_0000
        #expect(words(Orientation(rotation: .clockwise).displayMatrix(for: Self.size)) == [0, one, 0, -one, 0, 0, h, 0, unit])
        #expect(words(Orientation(rotation: .upsideDown).displayMatrix(for: Self.size)) == [-one, 0, 0, 0, -one, 0, w, h, unit])
        #expect(words(Orientation(rotation: .counterclockwise).displayMatrix(for: Self.size)) == [0, -one, 0, one, 0, 0, 0, w, unit])
        #expect(words(Orientation(flip: .horizontal).displayMatrix(for: Self.size)) == [-one, 0, 0, 0, one, 0, w, 0, unit])
    }
}

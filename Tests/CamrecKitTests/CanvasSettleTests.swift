@testable import CamrecKit
import GStreamer
import Testing

/// `--settle` with `--layout`: each camera's rectangle on the canvas is measured on its
/// own (`CanvasBrightness`), read through the frame's real layout (rows of an I420 canvas
/// rounded up to 4 bytes), and the canvas is stable only when every camera's picture is.
@Suite struct CanvasSettleTests {
    /// An I420 canvas frame laid out as GStreamer lays out `width` × `height` (its caps'
    /// default strides), every luma byte from `luma(x, y)`, the bytes past each row's
    /// width 255 (a reader that took the width for the stride would count them).
    static func canvas(width: Int, height: Int, luma: (Int, Int) -> UInt8) throws -> (Buffer, VideoFrameLayout) {
        let caps = try Caps("video/x-raw,format=I420,width=\(width),height=\(height),framerate=30/1")
        let layout = try #require(caps.videoLayout)
        let size = try #require(layout.offsets.last) + layout.strides[2] * ((height + 1) / 2)
        var bytes = [UInt8](repeating: 128, count: size)
        for y in 0..<height {
            for x in 0..<layout.strides[0] { bytes[y * layout.strides[0] + x] = x < width ? luma(x, y) : 255 }
        }
        return (try #require(Buffer(bytes: bytes)), layout)
    }

    static func means(_ cells: CanvasBrightness, width: Int, height: Int, luma: (Int, Int) -> UInt8) throws -> [Double] {
        let (buffer, layout) = try canvas(width: width, height: height, luma: luma)
        return try #require(buffer.withBytes { cells.means($0, layout: layout) })
    }

    @Test func eachRectangleIsMeasuredThroughTheRowStride() throws {
        // 66 wide (rows of 68 bytes): two stacked cells, and two side by side.
        let stacked = CanvasBrightness(rects: [PixelRect(x: 0, y: 0, width: 66, height: 20),
                                               PixelRect(x: 0, y: 20, width: 66, height: 20)])
        #expect(try Self.means(stacked, width: 66, height: 40) { _, y in y < 20 ? 40 : 180 } == [40, 180])
        let beside = CanvasBrightness(rects: [PixelRect(x: 0, y: 0, width: 34, height: 40),
                                              PixelRect(x: 34, y: 0, width: 32, height: 40)])
        #expect(try Self.means(beside, width: 66, height: 40) { x, _ in x < 34 ? 60 : 220 } == [60, 220])
    }

    @Test func aCameraIsMeasuredOnlyWhereItShows() throws {
        // --layout pip: camera 2's inset lies on camera 1's picture, drawn on top of it.
        let pip = CanvasBrightness(rects: [PixelRect(x: 0, y: 0, width: 66, height: 40),
                                           PixelRect(x: 44, y: 26, width: 16, height: 12)])
        let means = try Self.means(pip, width: 66, height: 40) { x, y in
            (44..<60).contains(x) && (26..<38).contains(y) ? 200 : 50
        }
        #expect(means == [50, 200])
        // A rectangle reaching past the canvas is read only where it lies on it.
        let over = CanvasBrightness(rects: [PixelRect(x: 50, y: 30, width: 40, height: 40)])
        #expect(try Self.means(over, width: 66, height: 40) { _, _ in 90 } == [90])
    }

    /// A frame the layout says has no 8-bit luma plane cannot be measured: no value.
    @Test func aFrameWithoutALumaPlaneHasNoMeans() throws {
        let cells = CanvasBrightness(rects: [PixelRect(x: 0, y: 0, width: 64, height: 8)])
        let layout = try #require(try Caps("video/x-raw,format=YUY2,width=64,height=8").videoLayout)
        let bytes = [UInt8](repeating: 100, count: 64 * 8 * 2)
        #expect(bytes.withUnsafeBytes { cells.means($0, layout: layout) }.isEmpty)
    }

    /// Camera 1 fills the canvas, steady; camera 2, a small inset (--layout pip), ramps
    /// up for 30 frames at 1.5 a frame. The canvas's mean moves at a sixteenth of that,
    /// within the tolerance: it would have called the picture stable after 6 frames. Each
    /// rectangle on its own: not stable until camera 2's is too.
    @Test func theCanvasIsStableOnlyWhenEveryCameraIs() throws {
        let (width, height) = (66, 40)
        let inset = PixelRect(x: 48, y: 30, width: 16, height: 10)
        let cells = CanvasBrightness(rects: [PixelRect(x: 0, y: 0, width: width, height: height), inset])
        func picture(_ index: Int) -> (Int, Int) -> UInt8 {
            let ramp = UInt8(40 + 1.5 * Double(min(index, 30)))
            return { x, y in (inset.x..<(inset.x + inset.width)).contains(x) && (inset.y..<(inset.y + inset.height)).contains(y) ? ramp : 100 }
        }
        var window = try #require(SettleWindow(limit: .seconds(5), rate: SettleWindowTests.rate))
        var whole = ExposureSettler()
        var wholeStableAt: Int?
        let held = try SettleWindowTests.hold(&window) { window, index, time in
            let (buffer, layout) = try Self.canvas(width: width, height: height, luma: picture(index))
            let means = try #require(buffer.withBytes { cells.means($0, layout: layout) })
            let measured = window.measure(time, brightnesses: { means })
            #expect(measured)
            let canvasMean = try #require(buffer.withBytes { ExposureSettler.meanLuma($0, pixels: layout.strides[0] * height) })
            if whole.add(canvasMean), wholeStableAt == nil { wholeStableAt = index }
        }
        #expect((wholeStableAt ?? 99) < 10, "the whole canvas's mean hardly moves")
        // Camera 2's brightness agrees over frames 30…35: the first frame recorded is 36.
        #expect(held == 36)
        #expect(window.outcome?.stable == true)
        #expect(window.outcome?.frames == 36)
    }

    /// The other way round, and a camera's autofocus: the canvas waits for each.
    @Test func eachCameraAndEachFocusIsWaitedFor() throws {
        var window = try #require(SettleWindow(limit: .seconds(5), rate: SettleWindowTests.rate))
        let held = SettleWindowTests.hold(&window) { window, index, time in
            let first = 16 + 3 * Double(min(index, 20))
            _ = window.measure(time, brightnesses: { [first, 120] }, focusBusy: { index < 40 })
        }
        #expect(held == 41)
        var unread = try #require(SettleWindow(limit: TimeSpec(nanoseconds: 500_000_000), rate: SettleWindowTests.rate))
        let frames = SettleWindowTests.hold(&unread) { window, _, time in
            _ = window.measure(time, brightnesses: { [] })
        }
        // Frames that cannot be read never make the picture stable: the limit ends the wait.
        #expect(frames == 15 && unread.outcome?.stable == false)
    }
}

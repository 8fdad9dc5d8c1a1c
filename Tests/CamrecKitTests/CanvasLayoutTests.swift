import Testing
@testable import CamrecKit

/// Layouts as pure functions: rectangles from the canvas, the layout and the cameras' sizes.
struct CanvasLayoutTests {
    let hd = FrameSize(width: 1280, height: 720)
    let vga = FrameSize(width: 640, height: 480)

    /// Whether `rect` shows `size` unstretched: its aspect ratio within the one pixel of
    /// rounding each side may lose to even sizes.
    func keepsAspect(_ rect: PixelRect, _ size: FrameSize) -> Bool {
        let ratio = Double(size.width) / Double(size.height)
        let low = Double(rect.width - 2) / Double(rect.height + 2), high = Double(rect.width + 2) / Double(max(rect.height - 2, 1))
        return low <= ratio && ratio <= high
    }

    func inside(_ rect: PixelRect, _ cell: PixelRect) -> Bool {
        rect.x >= cell.x && rect.y >= cell.y && rect.x + rect.width <= cell.x + cell.width && rect.y + rect.height <= cell.y + cell.height
    }

    @Test func stackedOnTheDefaultCanvasGivesEachCameraAFullWidthBand() {
        let rects = CanvasLayout.stacked.rectangles(canvas: CanvasLayout.defaultCanvas, sizes: [hd, hd])
        // 1080×960 bands; 1280×720 scaled to 1080 wide is 1080×608 (607.5 rounded to even), centred.
        #expect(rects == [PixelRect(x: 0, y: 176, width: 1080, height: 608),
                          PixelRect(x: 0, y: 1136, width: 1080, height: 608)])
    }

    @Test func sideBySideGivesEachCameraAFullHeightColumn() {
        let rects = CanvasLayout.sideBySide.rectangles(canvas: FrameSize(width: 1920, height: 1080), sizes: [hd, vga])
        #expect(rects[0] == PixelRect(x: 0, y: 270, width: 960, height: 540))
        #expect(rects[1] == PixelRect(x: 960, y: 180, width: 960, height: 720))
    }

    @Test func gridOfThreeIsTwoByTwoWithTheLastCellEmpty() {
        let canvas = FrameSize(width: 1280, height: 720)
        let cells = CanvasLayout.grid.cells(canvas: canvas, count: 3)
        #expect(cells == [PixelRect(x: 0, y: 0, width: 640, height: 360), PixelRect(x: 640, y: 0, width: 640, height: 360),
                          PixelRect(x: 0, y: 360, width: 640, height: 360)])
        let rects = CanvasLayout.grid.rectangles(canvas: canvas, sizes: [hd, hd, vga])
        #expect(rects[0] == cells[0] && rects[1] == cells[1])
        #expect(rects[2] == PixelRect(x: 80, y: 360, width: 480, height: 360))
    }

    @Test func gridCounts() {
        let canvas = FrameSize(width: 1200, height: 1200)
        #expect(CanvasLayout.grid.cells(canvas: canvas, count: 1) == [PixelRect(x: 0, y: 0, width: 1200, height: 1200)])
        #expect(CanvasLayout.grid.cells(canvas: canvas, count: 2).map(\.width) == [600, 600])
        #expect(Set(CanvasLayout.grid.cells(canvas: canvas, count: 5).map(\.width)) == [400])
        #expect(CanvasLayout.grid.cells(canvas: canvas, count: 5).map(\.y) == [0, 0, 0, 600, 600])
    }

    @Test func pipPutsTheOthersAsInsetsOverTheFirst() {
        let canvas = FrameSize(width: 1920, height: 1080)
        let rects = CanvasLayout.pip.rectangles(canvas: canvas, sizes: [hd, hd, hd])
        #expect(rects[0] == PixelRect(x: 0, y: 0, width: 1920, height: 1080))
        // Insets 480×270, margins 26 pixels (1080 / 40, even), from the right.
        #expect(rects[1].width == 480 && rects[1].x + rects[1].width == 1920 - 26)
        #expect(rects[2].x + rects[2].width == rects[1].x - 26)
        #expect(rects[1].y + rects[1].height <= 1080 - 26)
    }

    @Test func everyRectangleKeepsItsCamerasAspectRatioAndStaysInItsCell() {
        let sizes = [hd, vga, FrameSize(width: 720, height: 1280), FrameSize(width: 320, height: 240)]
        let canvases = [CanvasLayout.defaultCanvas, FrameSize(width: 1920, height: 1080), FrameSize(width: 642, height: 362),
                        FrameSize(width: 100, height: 2000)]
        for layout in CanvasLayout.allCases {
            for canvas in canvases {
                for count in 1...4 {
                    let chosen = Array(sizes.prefix(count))
                    let cells = layout.cells(canvas: canvas, count: count)
                    let rects = layout.rectangles(canvas: canvas, sizes: chosen)
                    for (index, rect) in rects.enumerated() {
                        #expect(keepsAspect(rect, chosen[index]), "\(layout) \(canvas) camera \(index + 1): \(rect)")
                        #expect(inside(rect, cells[index]), "\(layout) \(canvas) camera \(index + 1): \(rect) outside \(cells[index])")
                        #expect(rect.x % 2 == 0 && rect.y % 2 == 0 && rect.width % 2 == 0 && rect.height % 2 == 0)
                        // Fits the cell: touches both of its sides in one direction.
                        #expect(rect.width >= cells[index].width - 2 || rect.height >= cells[index].height - 2)
                    }
                }
            }
        }
    }

    @Test func cellsOfStackedAndSideBySideTileTheCanvas() {
        let canvas = FrameSize(width: 1000, height: 1000)
        let stacked = CanvasLayout.stacked.cells(canvas: canvas, count: 3)
        #expect(stacked.map(\.y) == [0, 332, 666] && stacked.last.map { $0.y + $0.height } == 1000)
        let columns = CanvasLayout.sideBySide.cells(canvas: canvas, count: 3)
        #expect(columns.map(\.x) == [0, 332, 666] && columns.last.map { $0.x + $0.width } == 1000)
    }

    @Test func namesAreTheOptionsValues() {
        #expect(CanvasLayout.names == ["stacked", "side-by-side", "grid", "pip"])
        #expect(CanvasLayout(rawValue: "side-by-side") == .sideBySide)
    }
}

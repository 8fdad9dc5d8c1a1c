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
        let rects = CanvasLayout.pip(.standard).rectangles(canvas: canvas, sizes: [hd, hd, hd])
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
        let placed = PipPlacement.Corner.allCases.flatMap { corner in [5, 33, 60].map { CanvasLayout.pip(PipPlacement(corner: corner, percent: $0)) } }
        for layout in CanvasLayout.allCases + placed {
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

    @Test func namesAreTheOptionsValues() throws {
        #expect(CanvasLayout.names == ["stacked", "side-by-side", "grid", "pip"])
        #expect(try CanvasLayout.parse("side-by-side") == .sideBySide)
        for layout in CanvasLayout.allCases { #expect(try CanvasLayout.parse(layout.name) == layout) }
    }

    // MARK: pip:CORNER:SIZE (issue 36 item 2)

    static func pip(_ corner: PipPlacement.Corner, _ percent: Int) -> CanvasLayout { .pip(PipPlacement(corner: corner, percent: percent)) }

    /// `--layout` values and what they parse to, with the name the JSON gives back.
    static let pipForms: [(String, CanvasLayout, String)] = [
        ("pip", .pip(.standard), "pip"),
        ("pip:bottom-right:25%", .pip(.standard), "pip"),
        ("pip:25%", .pip(.standard), "pip"),
        ("pip:bottom-right", .pip(.standard), "pip"),
        ("pip:bottom-right:30%", pip(.bottomRight, 30), "pip:bottom-right:30%"),
        ("pip:top-left", pip(.topLeft, 25), "pip:top-left:25%"),
        ("pip:top-right:5%", pip(.topRight, 5), "pip:top-right:5%"),
        ("pip:bottom-left:60%", pip(.bottomLeft, 60), "pip:bottom-left:60%"),
        ("pip:40%", pip(.bottomRight, 40), "pip:bottom-right:40%"),
        ("PIP:Top-Left:30%", pip(.topLeft, 30), "pip:top-left:30%"),
        ("pip:tl:30%", pip(.topLeft, 30), "pip:top-left:30%"),
        ("pip:br", .pip(.standard), "pip"),
    ]

    @Test(arguments: pipForms)
    func pipFormsParse(_ text: String, _ layout: CanvasLayout, _ name: String) throws {
        let parsed = try CanvasLayout.parse(text)
        #expect(parsed == layout, "\(text)")
        #expect(parsed.name == name, "\(text)")
        // The name reads back as the same layout.
        #expect(try CanvasLayout.parse(name) == layout, "\(name)")
    }

    static let what = "write pip:CORNER:SIZE (CORNER top-left, top-right, bottom-left or bottom-right; SIZE from 5% to 60% of the canvas width; either may be left out), e.g. pip:bottom-right:30%"
    static let corners = "use top-left, top-right, bottom-left or bottom-right, e.g. pip:top-left:30%"

    /// Every bad form, and the one line saying what to write.
    static let badForms: [(String, String)] = [
        ("pip:top:30%", "unknown corner 'top' in 'pip:top:30%': " + corners),
        ("pip:middle", "unknown corner 'middle' in 'pip:middle': " + corners),
        ("pip:", "an empty corner in 'pip:': " + corners),
        ("pip::30%", "an empty corner in 'pip::30%': " + corners),
        ("pip:70%", "size '70%' in 'pip:70%': give a whole percentage of the canvas width from 5% to 60%, e.g. pip:bottom-right:30%"),
        ("pip:4%", "size '4%' in 'pip:4%': give a whole percentage of the canvas width from 5% to 60%, e.g. pip:bottom-right:30%"),
        ("pip:12.5%", "size '12.5%' in 'pip:12.5%': give a whole percentage of the canvas width from 5% to 60%, e.g. pip:bottom-right:30%"),
        ("pip:%", "size '%' in 'pip:%': give a whole percentage of the canvas width from 5% to 60%, e.g. pip:bottom-right:30%"),
        ("pip:top-left:30", "size '30' in 'pip:top-left:30': give it in percent of the canvas width, from 5% to 60%, e.g. pip:bottom-right:30%"),
        ("pip:30%:top-left", "'pip:30%:top-left': the size comes after the corner: " + what),
        ("pip:top-left:bottom-left", "'pip:top-left:bottom-left': the corner comes first, once: " + what),
        ("pip:30%:40%", "'pip:30%:40%': the size comes after the corner: " + what),
        ("pip:top-left:30%:x", "'pip:top-left:30%:x' has more than a corner and a size: " + what),
        ("stacked:top-left", "'stacked:top-left': stacked has no corner or size, only pip has: write stacked, or " + what.dropFirst(6)),
        ("mosaic", "unknown layout 'mosaic': use stacked, side-by-side, grid, pip or " + what.dropFirst(6)),
        ("pipe", "unknown layout 'pipe': use stacked, side-by-side, grid, pip or " + what.dropFirst(6)),
    ]

    @Test(arguments: badForms)
    func badPipFormsSayWhatToWrite(_ text: String, _ message: String) {
        #expect(throws: ValueError(message)) { try CanvasLayout.parse(text) }
        #expect(!message.contains("\n"))
    }

    /// Two 1280×720 cameras, the inset 30% of a 1920×1080 canvas: 576×324, 26 pixels
    /// (1080 / 40, even) from the corner's two edges; a third beside it, away from the corner.
    static let corners1080: [(PipPlacement.Corner, PixelRect, PixelRect)] = [
        (.topLeft, PixelRect(x: 26, y: 26, width: 576, height: 324), PixelRect(x: 628, y: 26, width: 576, height: 324)),
        (.topRight, PixelRect(x: 1318, y: 26, width: 576, height: 324), PixelRect(x: 716, y: 26, width: 576, height: 324)),
        (.bottomLeft, PixelRect(x: 26, y: 730, width: 576, height: 324), PixelRect(x: 628, y: 730, width: 576, height: 324)),
        (.bottomRight, PixelRect(x: 1318, y: 730, width: 576, height: 324), PixelRect(x: 716, y: 730, width: 576, height: 324)),
    ]

    @Test(arguments: corners1080)
    func eachCornerHoldsTheInsetAMarginFromItsEdges(_ corner: PipPlacement.Corner, _ inset: PixelRect, _ beside: PixelRect) {
        let canvas = FrameSize(width: 1920, height: 1080)
        let two = Self.pip(corner, 30).rectangles(canvas: canvas, sizes: [hd, hd])
        #expect(two == [PixelRect(x: 0, y: 0, width: 1920, height: 1080), inset])
        let three = Self.pip(corner, 30).rectangles(canvas: canvas, sizes: [hd, hd, hd])
        #expect(three == [PixelRect(x: 0, y: 0, width: 1920, height: 1080), inset, beside])
    }

    /// Plain pip on the default (portrait) canvas: the inset a quarter of the width,
    /// 270×152, in the bottom right corner 26 pixels from both edges.
    @Test func plainPipOnTheDefaultCanvas() {
        let rects = CanvasLayout.pip(.standard).rectangles(canvas: CanvasLayout.defaultCanvas, sizes: [hd, hd])
        #expect(rects == [PixelRect(x: 0, y: 656, width: 1080, height: 608), PixelRect(x: 784, y: 1742, width: 270, height: 152)])
    }

    /// The inset's width is SIZE of the canvas width (even), its height the picture's.
    @Test(arguments: [(5, 96, 54), (25, 480, 270), (33, 632, 356), (60, 1152, 648)])
    func sizesArePercentagesOfTheCanvasWidth(_ percent: Int, _ width: Int, _ height: Int) {
        let canvas = FrameSize(width: 1920, height: 1080)
        let inset = Self.pip(.bottomRight, percent).rectangles(canvas: canvas, sizes: [hd, hd])[1]
        #expect(inset == PixelRect(x: 1920 - 26 - width, y: 1080 - 26 - height, width: width, height: height))
    }

    /// A picture too tall for SIZE of the width is as tall as the canvas less the margins,
    /// still in the corner.
    @Test func aTallInsetIsAsHighAsTheCanvasAllows() {
        let canvas = FrameSize(width: 1920, height: 1080)
        let portrait = FrameSize(width: 720, height: 1280)
        #expect(Self.pip(.bottomRight, 60).rectangles(canvas: canvas, sizes: [hd, portrait])[1]
                == PixelRect(x: 1316, y: 26, width: 578, height: 1028))
        #expect(Self.pip(.topLeft, 60).rectangles(canvas: canvas, sizes: [hd, portrait])[1]
                == PixelRect(x: 26, y: 26, width: 578, height: 1028))
    }

    /// Every corner, size and count on canvases that do not divide evenly (and odd ones,
    /// which `--canvas` refuses but the geometry must not break on): even rectangles on
    /// the canvas, the first inset exactly in its corner (the margin from both edges, to
    /// the even pixel), the others along the same edge, in order away from the corner.
    @Test(arguments: [FrameSize(width: 642, height: 362), FrameSize(width: 322, height: 242), FrameSize(width: 1080, height: 1920),
                      FrameSize(width: 641, height: 361), FrameSize(width: 64, height: 64), FrameSize(width: 100, height: 2000)])
    func insetsSitInTheirCornerOnAnyCanvas(_ canvas: FrameSize) {
        let margin = CanvasLayout.even(min(canvas.width, canvas.height) / 40)
        for corner in PipPlacement.Corner.allCases {
            for percent in [5, 25, 60] {
                let rects = Self.pip(corner, percent).rectangles(canvas: canvas, sizes: [hd, vga, hd])
                let label = "\(canvas) \(corner) \(percent)%: \(rects)"
                for rect in rects {
                    #expect(rect.x % 2 == 0 && rect.y % 2 == 0 && rect.width % 2 == 0 && rect.height % 2 == 0, "\(label)")
                    #expect(rect.x >= 0 && rect.y >= 0 && rect.x + rect.width <= canvas.width && rect.y + rect.height <= canvas.height, "\(label)")
                }
                let inset = rects[1], next = rects[2]
                #expect(inset.width <= max(2, CanvasLayout.even(canvas.width * percent / 100)), "\(label)")
                // In the corner, to the pixel that keeps the rectangle even.
                let horizontal = corner.isLeft ? inset.x : canvas.width - inset.x - inset.width
                let vertical = corner.isTop ? inset.y : canvas.height - inset.y - inset.height
                #expect(horizontal >= margin && horizontal <= margin + 1, "\(label)")
                #expect(vertical >= margin && vertical <= margin + 1, "\(label)")
                // The next inset along the same edge, further from the corner (unless the
                // canvas has no room left for it, where it stops at the far edge).
                #expect(corner.isTop ? next.y == inset.y : next.y + next.height == inset.y + inset.height, "\(label)")
                if percent <= 25 {
                    #expect(corner.isLeft ? next.x >= inset.x + inset.width : next.x + next.width <= inset.x, "\(label)")
                }
            }
        }
    }
}

@testable import CamrecKit
import Testing

/// `--layout` and `--canvas` as given, typed by `LayoutRequest`.
struct LayoutRequestTests {
    @Test func noLayoutIsOneMovieAPerCameraOnTheDefaultCanvas() throws {
        let (layout, canvas) = try LayoutRequest().resolve()
        #expect(layout == nil && canvas == CanvasLayout.defaultCanvas)
    }

    @Test func layoutsByNameInAnyCase() throws {
        for layout in CanvasLayout.allCases {
            #expect(try LayoutRequest(layout: layout.name.uppercased()).resolve().layout == layout)
        }
        let (layout, canvas) = try LayoutRequest(layout: "grid", canvas: "640x480").resolve()
        #expect(layout == .grid && canvas == FrameSize(width: 640, height: 480))
        #expect(refusal { try LayoutRequest(layout: "mosaic").resolve() }?
                    .hasPrefix("--layout: unknown layout 'mosaic': use stacked, side-by-side, grid, pip or pip:CORNER:SIZE") == true)
    }

    /// `pip:CORNER:SIZE` (issue 36 item 2); its refusals are usage errors naming --layout.
    @Test func pipWithACornerAndASize() throws {
        #expect(try LayoutRequest(layout: "pip:top-left:30%").resolve().layout == .pip(PipPlacement(corner: .topLeft, percent: 30)))
        #expect(try LayoutRequest(layout: "pip").resolve().layout == .pip(.standard))
        #expect(refusal { try LayoutRequest(layout: "pip:top-left:90%").resolve() }
                == "--layout: size '90%' in 'pip:top-left:90%': give a whole percentage of the canvas width from 5% to 60%, e.g. pip:bottom-right:30%")
    }

    @Test func theCanvasNeedsALayoutAndRoomForItsCells() {
        #expect(refusal { try LayoutRequest(canvas: "640x480").resolve() }
                == "--canvas is the canvas of --layout: give --layout too, e.g. --layout stacked --canvas 1080x1920")
        #expect(refusal { try LayoutRequest(layout: "pip", canvas: "64x32").resolve() }
                == "--canvas 64x32 is too small for a layout: give at least 64x64, e.g. 1080x1920")
        #expect(refusal { try LayoutRequest(layout: "pip", canvas: "big").resolve() }?.hasPrefix("--canvas: ") == true)
    }
}

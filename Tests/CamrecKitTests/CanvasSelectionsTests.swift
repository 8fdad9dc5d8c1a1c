@testable import CamrecKit
import Testing

/// Which canvas frame shows a camera's frame, from the compositor's selections.
@Suite struct CanvasSelectionsTests {
    @Test func aCameraFrameIsOnTheFirstCanvasFrameThatShowsIt() {
        let selections = CanvasSelections(cameras: 2)
        // Camera 2 runs at half the rate: its frame 500 is on two canvas frames.
        selections.record(canvas: 1000, cameraFrames: [990, 500])
        selections.record(canvas: 1033, cameraFrames: [1023, 500])
        selections.record(canvas: 1066, cameraFrames: [1056, 566])
        #expect(selections.lookup(camera: 0, pts: 1023) == .canvas(1033))
        #expect(selections.lookup(camera: 1, pts: 500) == .canvas(1000))
        #expect(selections.lookup(camera: 1, pts: 566) == .canvas(1066))
        // Not composed yet, or passed over (a newer frame is already shown).
        #expect(selections.lookup(camera: 0, pts: 1089) == .pending)
        #expect(selections.lookup(camera: 0, pts: 1000) == .absent)
        // No such camera.
        #expect(selections.lookup(camera: 2, pts: 500) == .absent)
    }

    @Test func aLostCameraHasNothingNewOnTheCanvas() {
        let selections = CanvasSelections(cameras: 2)
        selections.record(canvas: 1000, cameraFrames: [990, 980])
        selections.record(canvas: 1033, cameraFrames: [1023, nil])
        #expect(selections.lookup(camera: 1, pts: 980) == .canvas(1000))
        #expect(selections.lookup(camera: 1, pts: 1013) == .pending)
    }

    /// A canvas still's EXIF time is its first camera's frame's (the next camera's when
    /// the first shows none); an unknown canvas frame has none.
    @Test func aCanvasFrameCarriesItsFirstCamerasFrame() {
        let selections = CanvasSelections(cameras: 2)
        selections.record(canvas: 1000, cameraFrames: [990, 980])
        selections.record(canvas: 1033, cameraFrames: [nil, 1013])
        selections.record(canvas: 1066, cameraFrames: [nil, nil])
        #expect(selections.cameraFrame(onCanvas: 1000) == 990)
        #expect(selections.cameraFrame(onCanvas: 1033) == 1013)
        #expect(selections.cameraFrame(onCanvas: 1066) == nil)
        #expect(selections.cameraFrame(onCanvas: 1099) == nil)
    }

    @Test func onlyTheMostRecentFramesAreRemembered() {
        let selections = CanvasSelections(cameras: 1, capacity: 3)
        for k in 0..<5 { selections.record(canvas: UInt64(k * 10), cameraFrames: [UInt64(k * 10 + 1)]) }
        #expect(selections.lookup(camera: 0, pts: 1) == .absent)
        #expect(selections.lookup(camera: 0, pts: 21) == .canvas(20))
        #expect(selections.lookup(camera: 0, pts: 41) == .canvas(40))
    }
}

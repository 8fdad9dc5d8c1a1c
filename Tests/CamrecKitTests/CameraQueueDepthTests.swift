@testable import CamrecKit
import Testing

/// How deep a queue camrec asks the camera for: half a second of frames, at most 16 MiB of
/// buffers, 4 to 32 of them.
@Suite struct CameraQueueDepthTests {
    static let vga = 640 * 480 * 2, qvga = 320 * 240 * 2
    /// Frame bytes and the buffers they get at 30 fps: 640x480, 1280x720, 1920x1080, 320x240,
    /// unknown, 3840x2160 (width × height × 2).
    static let bySize: [(Int, Int)] = [(614_400, 15), (1_843_200, 9), (4_147_200, 4), (153_600, 15), (0, 15), (16_588_800, 4)]

    @Test(arguments: [(30.0, 15), (29.97, 15), (15, 8), (60, 30), (10, 5), (5, 4), (7.5, 4), (120, 32), (0, 4), (-1, 4),
                      (.nan, 4), (.infinity, 4)])
    func depthIsHalfASecondOfFrames(rate: Double, buffers: Int) {
        #expect(CameraQueueDepth(framesPerSecond: rate, frameBytes: Self.qvga).buffers == buffers)
    }

    @Test(arguments: bySize)
    func largeFramesGetFewerBuffers(frameBytes: Int, buffers: Int) {
        #expect(CameraQueueDepth(framesPerSecond: 30, frameBytes: frameBytes).buffers == buffers)
    }

    @Test func theQueryAsksForTwoFewerThanTheDepth() {
        // v4l2src adds 2 (and the driver's own minimum) to the query's minimum.
        let depth = CameraQueueDepth(framesPerSecond: 30, frameBytes: Self.vga)
        #expect(depth.queryMinimum == 13)
        #expect(depth.copyFrom == 7)
    }
}

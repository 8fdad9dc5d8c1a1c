@testable import CamrecKit
import Testing

/// How deep a queue camrec asks the camera for: half a second of frames, 4 to 32 buffers.
@Suite struct CameraQueueDepthTests {
    @Test(arguments: [(30.0, 15), (29.97, 15), (15, 8), (60, 30), (10, 5), (5, 4), (7.5, 4), (120, 32), (0, 4), (-1, 4),
                      (.nan, 4), (.infinity, 4)])
    func depthIsHalfASecondOfFrames(rate: Double, buffers: Int) {
        #expect(CameraQueueDepth(framesPerSecond: rate).buffers == buffers)
    }

    @Test func theQueryAsksForTwoFewerThanTheDepth() {
        // v4l2src adds 2 (and the driver's own minimum) to the query's minimum.
        #expect(CameraQueueDepth(framesPerSecond: 30).queryMinimum == 13)
    }
}

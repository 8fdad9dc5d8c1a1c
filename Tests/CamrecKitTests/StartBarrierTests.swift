import Testing
@testable import CamrecKit

/// The barrier that starts several cameras' movies at one instant, with plain times.
struct StartBarrierTests {
    /// 30 fps: 33.3 ms between frames.
    let interval: UInt64 = 33_333_333

    @Test func holdsEveryFrameUntilEachCameraHasOne() {
        let barrier = StartBarrier(cameras: 3, frameInterval: interval)
        #expect(!barrier.admits(camera: 0, at: 1_000_000_000))
        #expect(!barrier.admits(camera: 0, at: 1_033_333_333))
        #expect(!barrier.admits(camera: 1, at: 1_050_000_000))
        #expect(barrier.start == nil)
        // The last camera's first frame fixes the start; it is itself before it.
        #expect(!barrier.admits(camera: 2, at: 1_060_000_000))
        #expect(barrier.start == 1_060_000_000 + interval / 2)
    }

    @Test func firstFramesAfterTheStartAreWithinOneFrameInterval() {
        // Three cameras with their own phases, started one after another.
        let phases: [UInt64] = [0, 11_000_000, 29_000_000]
        let firsts: [UInt64] = [5, 9, 14]
        let barrier = StartBarrier(cameras: 3, frameInterval: interval)
        var admitted: [UInt64?] = [nil, nil, nil]
        // Frames arrive in time order, each camera from its own first frame on.
        var frames: [(camera: Int, time: UInt64)] = []
        for camera in 0..<3 {
            for n in firsts[camera]..<40 { frames.append((camera, 1_000_000_000 + phases[camera] + n * interval)) }
        }
        for frame in frames.sorted(by: { $0.time < $1.time }) where admitted[frame.camera] == nil {
            if barrier.admits(camera: frame.camera, at: frame.time) { admitted[frame.camera] = frame.time }
        }
        let times = admitted.compactMap { $0 }
        #expect(times.count == 3)
        if let earliest = times.min(), let latest = times.max() { #expect(latest - earliest < interval) }
    }

    @Test func afterTheStartEveryLaterFramePasses() {
        let barrier = StartBarrier(cameras: 2, frameInterval: interval)
        _ = barrier.admits(camera: 0, at: 100)
        _ = barrier.admits(camera: 1, at: 200)
        let start = barrier.start ?? 0
        #expect(barrier.admits(camera: 0, at: start))
        #expect(barrier.admits(camera: 1, at: start + 5))
        #expect(!barrier.admits(camera: 1, at: start - 1))
    }

    @Test func oneCameraStartsAtItsFirstFrameOrJustAfter() {
        let barrier = StartBarrier(cameras: 1, frameInterval: interval)
        #expect(!barrier.admits(camera: 0, at: 1_000))
        #expect(barrier.admits(camera: 0, at: 1_000 + interval))
    }
}

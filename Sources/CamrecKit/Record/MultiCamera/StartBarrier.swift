import Synchronization

/// Starts the movies of several cameras at one instant of the shared clock.
///
/// Every camera offers its frames (capture time on the pipelines' clock, the system's
/// CLOCK_MONOTONIC) before its gate sees them. Until each camera has offered one, no
/// frame is let through, so a camera that fails to start leaves every movie empty.
/// When the last camera offers its first frame, the start is fixed half a frame
/// interval after the newest frame any camera has offered: every camera then starts
/// with its first frame at or after it, and since each delivers one frame per interval,
/// all first frames lie within one frame interval of each other.
public final class StartBarrier: Sendable {
    private struct State {
        /// The newest frame time each camera has offered; nil before its first.
        var newest: [UInt64?]
        /// The common start, once every camera has offered a frame.
        var start: UInt64?
    }

    private let state: Mutex<State>
    /// Half the movies' frame interval, in nanoseconds.
    private let halfInterval: UInt64

    /// A barrier for `cameras` cameras whose movies have frames `frameInterval` ns apart.
    public init(cameras: Int, frameInterval: UInt64) {
        precondition(cameras > 0, "a start barrier needs a camera")
        state = Mutex(State(newest: Array(repeating: nil, count: cameras)))
        halfInterval = frameInterval / 2
    }

    /// Camera `camera`'s frame taken at clock time `time`: whether its movie may start
    /// with it (it is at or after the common start).
    public func admits(camera: Int, at time: UInt64) -> Bool {
        state.withLock { state in
            if let start = state.start { return time >= start }
            guard state.newest.indices.contains(camera) else { return false }
            state.newest[camera] = max(state.newest[camera] ?? 0, time)
            let offered = state.newest.compactMap { $0 }
            guard offered.count == state.newest.count, let newest = offered.max() else { return false }
            let start = newest + halfInterval
            state.start = start
            return time >= start
        }
    }

    /// The common start (clock time, ns); nil while a camera has offered no frame yet.
    public var start: UInt64? { state.withLock { $0.start } }

    /// One camera's place at the barrier, for its `RecordConfig`.
    public struct Member: Sendable {
        /// The barrier the cameras of the run share.
        public let barrier: StartBarrier
        /// The camera's index in the run (0 for the first `--device`).
        public let camera: Int

        public init(barrier: StartBarrier, camera: Int) {
            self.barrier = barrier
            self.camera = camera
        }

        /// Whether the camera's frame taken at clock time `time` may start its movie.
        public func admits(at time: UInt64) -> Bool { barrier.admits(camera: camera, at: time) }
    }
}

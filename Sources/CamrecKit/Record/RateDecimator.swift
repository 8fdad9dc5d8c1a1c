import Synchronization

/// Makes a slower frame rate from a camera's faster one by keeping frames evenly: the
/// first frame, then the first frame at or after each later slot of the movie's rate.
///
/// Used when a camera offers only rates faster than the one asked for (`--fps 15` from a
/// camera that has only 30). Camera timestamps jitter, so a frame counts as on time when
/// it is at most half a camera interval before its slot. Runs in a pad probe: arithmetic
/// under a mutex.
final class RateDecimator: Sendable {
    private let movieInterval: UInt64
    private let tolerance: UInt64
    private let nextSlot = Mutex<UInt64?>(nil)

    /// Keeps `movieRate` of the camera's `cameraRate` frames per second.
    init(cameraRate: FrameRateValue, movieRate: FrameRateValue) {
        movieInterval = UInt64(1e9 / max(movieRate.framesPerSecond, 0.001))
        tolerance = UInt64(0.5e9 / max(cameraRate.framesPerSecond, 0.001))
    }

    /// Whether the frame at `pts` (nanoseconds) is kept.
    func keep(pts: UInt64?) -> Bool {
        guard let pts else { return true }
        return nextSlot.withLock { slot in
            guard let due = slot else {
                slot = pts + movieInterval
                return true
            }
            guard pts + tolerance >= due else { return false }
            // The next slot after this frame (several slots on when the camera stalled).
            var next = due + movieInterval
            while next <= pts + tolerance { next += movieInterval }
            slot = next
            return true
        }
    }
}

import MediaValues
import Synchronization

/// Makes a slower frame rate from a camera's faster one by keeping frames evenly: the
/// first frame, then the first frame at or after each later slot of the movie's rate.
///
/// Used when a camera offers only rates faster than the one asked for (`--fps 15` from a
/// camera that has only 30). Camera timestamps jitter, so a frame counts as on time when
/// it is at most half a camera interval before its slot. Runs in a pad probe: arithmetic
/// under a mutex.
package final class RateDecimator: Sendable {
    private let movieInterval: UInt64
    private let tolerance: UInt64
    private let nextSlot = Mutex<UInt64?>(nil)

    /// Keeps `movieRate` of the camera's `cameraRate` frames per second.
    package init(cameraRate: FrameRateValue, movieRate: FrameRateValue) {
        movieInterval = UInt64(1e9 / max(movieRate.framesPerSecond, 0.001))
        tolerance = UInt64(0.5e9 / max(cameraRate.framesPerSecond, 0.001))
    }

    /// The slot the frame at `pts` (nanoseconds) fills on the movie's even grid, or nil
    /// when it is dropped. A frame without a timestamp is kept as it is.
    package func keep(pts: UInt64?) -> Slot? {
        guard let pts else { return .untimed }
        return nextSlot.withLock { slot in
            guard let due = slot else {
                slot = pts + movieInterval
                return .at(pts)
            }
            guard pts + tolerance >= due else { return nil }
            // The first slot after this frame; the slots it jumps over (a camera stall) were
            // lost, and show as a gap on the grid.
            var filled = due
            while filled + movieInterval <= pts + tolerance { filled += movieInterval }
            slot = filled + movieInterval
            return .at(filled)
        }
    }

    /// Where a kept frame goes.
    package enum Slot: Equatable {
        /// On the grid at this time (nanoseconds).
        case at(UInt64)
        /// The frame had no timestamp.
        case untimed

        /// The time on the grid; nil: untimed.
        package var time: UInt64? { if case .at(let time) = self { time } else { nil } }
    }
}

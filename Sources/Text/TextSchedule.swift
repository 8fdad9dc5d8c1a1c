import CamrecCore
import MediaValues

/// When a recording reads the text of a frame (`--text-every T`), on the movie's camera
/// time: a frame is due at 0, T, 2T … (the frame nearest each moment, within half a frame),
/// whatever the wall clock does. A moment passes whether or not its frame could be read
/// (the reader busy with an earlier one): readings stay on the grid, never bunch up after
/// a slow one. And `--text-changes`: whether a reading is reported. Plain values.
package struct TextSchedule: Equatable {
    /// T, in nanoseconds of camera time.
    let period: UInt64
    /// Half a frame: the frame nearest each moment is the one (timestamps jitter).
    let tolerance: UInt64
    private var next: UInt64 = 0

    /// A reading every `period` of a camera at `rate`, the first at 0.
    package init(every period: TimeSpec, rate: FrameRateValue) {
        self.period = UInt64(max(1, period.nanoseconds))
        tolerance = UInt64(500_000_000.0 / max(rate.framesPerSecond, 0.001))
    }

    /// Whether the frame `time` nanoseconds after the movie's first is due: true once for
    /// each moment reached, even when several passed at once (a stalled camera): one
    /// reading then, not a burst.
    package mutating func isDue(time: UInt64) -> Bool {
        guard time + tolerance >= next else { return false }
        while next <= time + tolerance { next += period }
        return true
    }
}

/// `--text-changes`: a reading is reported when its text differs from the last one
/// reported (the first always is; so is one asked for on request, which also becomes the
/// text later readings are compared with).
package struct TextChangeFilter: Equatable {
    /// Whether only changes are reported; false: every reading.
    let changesOnly: Bool
    private var last: String?

    /// A filter that reports changes only with `changesOnly`, else every reading.
    package init(changesOnly: Bool) { self.changesOnly = changesOnly }

    /// Whether a reading of `text` is reported; `asked`: a reading asked for on request.
    package mutating func reports(_ text: String, asked: Bool = false) -> Bool {
        defer { last = text }
        return !changesOnly || asked || last != text
    }
}

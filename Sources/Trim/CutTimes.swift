import CamrecCore
import MediaValues

/// The cut on the input's presentation timeline, the second stage of ``Trimmer``: the
/// request's start and end (negative ones counted back from the end of the video), checked
/// against the video's length; and the same cut in a frame index's buffer times, which is
/// what the planner compares frames with.
struct CutTimes: Sendable, Equatable {
    /// The first instant kept, in nanoseconds on the presentation timeline.
    let start: Int64
    /// The end of the cut (exclusive).
    let end: Int64
    /// What was changed from the request, for warnings: a time beyond the video clamped to it.
    var notes: [String] = []

    /// Half a millisecond taken off both ends: Matroska stores times in whole milliseconds,
    /// so a frame shown at 1 s may read 1.000 while the movie's end reads 4.000333 s (and
    /// `--end -3` would otherwise keep that frame, `--start -3` drop it).
    static let slack: Int64 = 500_000

    /// Start and end of `request` on a video that lasts `length` nanoseconds.
    ///
    /// - Throws: invalid input, naming `name` and the video's length, when the start is past
    ///   the end of the video or not before the end of the cut.
    static func resolve(_ request: TrimRequest, length: Int64, name: String) throws(CamrecError) -> CutTimes {
        func resolve(_ time: TimeSpec?, default value: Int64) -> Int64 {
            guard let time else { return value }
            return time.isNegative ? length + time.nanoseconds : time.nanoseconds
        }
        let start = max(0, resolve(request.start, default: 0))
        let end = min(length, resolve(request.end, default: length))
        let lengthText = String(cFormat: "%.3fs", Trimmer.seconds(length))
        if let requested = request.start, start >= length {
            throw .invalidInput("--start \(requested) is past the end of \(name) (its video lasts \(lengthText))")
        }
        if end <= start {
            let startText = request.start.map { "--start \($0)" } ?? "the start"
            let endText = request.end.map { "--end \($0)" } ?? "the end"
            throw .invalidInput(
                "\(startText) is not before \(endText) in \(name) (its video lasts \(lengthText))"
            )
        }
        // Beyond the video on the side it counts from is refused above; beyond the other
        // side is clamped, and said.
        var notes: [String] = []
        if let requested = request.start, resolve(requested, default: 0) < 0 {
            notes.append("--start \(requested) reaches before the start of \(name) (its video lasts \(lengthText)): cut from its start")
        }
        if let requested = request.end, resolve(requested, default: length) > length {
            notes.append("--end \(requested) is past the end of \(name) (its video lasts \(lengthText)): cut to its end")
        }
        return CutTimes(start: start, end: end, notes: notes)
    }

    /// `request` with its times counted from the first frame, when the movie's timeline
    /// starts at `firstFrame` (> 0: a Matroska file with `-output_ts_offset`, a cut stream,
    /// an MP4 without an edit list) and the cut asked for lies wholly before that frame,
    /// so it cannot mean the movie's own timeline; nil otherwise. The note says so.
    static func countedFromFirstFrame(
        _ request: TrimRequest, firstFrame: Int64, name: String
    ) -> (request: TrimRequest, note: String)? {
        guard firstFrame >= 1_000_000, let end = request.end, !end.isNegative, end.nanoseconds <= firstFrame,
              request.start.map({ !$0.isNegative }) ?? true
        else { return nil }
        var shifted = request
        shifted.start = request.start.map { TimeSpec(nanoseconds: $0.nanoseconds + firstFrame) }
        shifted.end = TimeSpec(nanoseconds: end.nanoseconds + firstFrame)
        let first = String(cFormat: "%.3f s", Trimmer.seconds(firstFrame))
        return (shifted, "the times given lie before the first frame of \(name) (at \(first) on its timeline): counted from that frame")
    }

    /// The cut in the buffer times of an index whose buffer times run `presentationOffset`
    /// after its presentation times (an edit list), less the ``slack``.
    func bufferTimes(presentationOffset: Int64) -> (start: Int64, end: Int64) {
        (start + presentationOffset - Self.slack, end + presentationOffset - Self.slack)
    }
}

import Glibc

/// Decides when the picture changes (`--on-motion`, issue 16): it compares small grey
/// frames (a few per second, downscaled to a few thousand pixels) with a background it
/// learns, and reports the moment something appears: one detection per event.
///
/// What it ignores:
/// - **sensor noise**: each pixel's threshold follows how much that pixel usually varies
///   (its mean absolute deviation, learnt), with a floor;
/// - **slow light changes** and the camera's exposure settling: the background follows
///   the picture slowly, and a change that moves the whole picture alike (the median
///   difference) is taken out before pixels are compared;
/// - **small changes**: fewer changed pixels than `minimumArea` of the picture (leaves,
///   a blinking LED) do not count;
/// - **masked regions** (`--motion-mask`): pixels marked false are never compared.
///
/// An event starts when the changed area stays above the minimum for `confirm` frames in a
/// row, and ends when it stays below for `quiet` frames; only its start is reported. The
/// background does not learn from pixels that changed, so an object that stops in the
/// picture is absorbed only slowly (`absorb`), and its leaving is not a new event until
/// then. Pure state: the recording feeds it frames from a thread of its own.
struct MotionDetector {
    /// The numbers that decide what counts.
    struct Tuning: Equatable, Sendable {
        /// Share of the picture that must change (0…1).
        var minimumArea = 0.01
        /// A pixel changed when it differs from the background by more than this many times
        /// its usual variation…
        var deviations = 4.5
        /// …and by at least this many grey levels.
        var floor = 13.0
        /// How fast the background follows unchanged pixels (share per frame).
        var learn = 0.05
        /// How fast it follows changed ones (an object that stays becomes background).
        var absorb = 0.002
        /// Frames in a row with enough change to start an event.
        var confirm = 2
        /// Frames in a row without it to end one.
        var quiet = 5
        /// Frames to learn the background and the noise before anything can be detected
        /// (they learn fast meanwhile: `warmUpLearn`).
        var warmUp = 10
        var warmUpLearn = 0.3

        /// The tuning for a sensitivity from 0 (only large, clear changes) to 1 (small,
        /// faint ones); 0.5 is the default.
        static func sensitivity(_ value: Double) -> Tuning {
            let value = min(max(value, 0), 1)
            var tuning = Tuning()
            // 5 % of the picture at 0, 1 % at 0.5, 0.2 % at 1 (log scale).
            tuning.minimumArea = 0.05 * pow(25, -value)
            tuning.deviations = 6 - 3 * value
            tuning.floor = 20 - 14 * value
            return tuning
        }
    }

    /// One detection: when an event started.
    struct Detection: Equatable {
        /// The frame's number among those fed (from 0).
        var frame: Int
        /// The share of the picture that changed.
        var area: Double
    }

    let width: Int
    let height: Int
    let tuning: Tuning
    private let mask: [Bool]?
    private var background: [Double] = []
    private var deviation: [Double] = []
    /// Reused for each frame: the differences, and their histogram (for the median).
    private var differences: [Double] = []
    private var histogram = [Int](repeating: 0, count: 511)
    private var fed = 0
    private var busy = 0
    private var calm = 0
    private var inEvent = false

    /// A detector for `width`×`height` grey frames; `mask` (same size, row by row): false
    /// for the pixels to ignore.
    init(width: Int, height: Int, tuning: Tuning = Tuning(), mask: [Bool]? = nil) {
        self.width = max(width, 1)
        self.height = max(height, 1)
        self.tuning = tuning
        self.mask = mask?.count == width * height ? mask : nil
    }

    /// The share of the picture that changed in the last frame fed.
    private(set) var lastArea = 0.0

    /// Whether an event is under way.
    var isInEvent: Bool { inEvent }

    /// Feeds the next frame (`width × height` grey levels, row by row); returns a detection
    /// when an event starts with it.
    mutating func feed(_ frame: [UInt8]) -> Detection? {
        let count = width * height
        guard frame.count == count else { return nil }
        defer { fed += 1 }
        if background.isEmpty {
            background = frame.map(Double.init)
            deviation = Array(repeating: 0, count: count)
            differences = Array(repeating: 0, count: count)
            return nil
        }
        // The whole picture's shift (light, exposure): the median difference, to a grey level.
        for index in 0..<histogram.count { histogram[index] = 0 }
        for index in 0..<count {
            let difference = Double(frame[index]) - background[index]
            differences[index] = difference
            histogram[Int(difference.rounded()) + 255] += 1
        }
        let shift = median(of: count)
        let warming = fed < tuning.warmUp
        var changed = 0, compared = 0
        for index in 0..<count {
            let difference = differences[index] - shift
            let size = abs(difference)
            let isMasked = mask.map { !$0[index] } ?? false
            let moved = !warming && !isMasked && size > max(tuning.floor, tuning.deviations * deviation[index])
            if !isMasked { compared += 1 }
            if moved { changed += 1 }
            let rate = warming ? tuning.warmUpLearn : moved ? tuning.absorb : tuning.learn
            background[index] += rate * (difference + shift)
            if !moved { deviation[index] += rate * (size - deviation[index]) }
        }
        lastArea = compared > 0 ? Double(changed) / Double(compared) : 0
        guard fed >= tuning.warmUp else { return nil }
        if lastArea >= tuning.minimumArea {
            busy += 1
            calm = 0
        } else {
            calm += 1
            busy = 0
        }
        if !inEvent, busy >= tuning.confirm {
            inEvent = true
            return Detection(frame: fed, area: lastArea)
        }
        if inEvent, calm >= tuning.quiet { inEvent = false }
        return nil
    }

    /// The median of the `count` differences in the histogram, in grey levels.
    private func median(of count: Int) -> Double {
        var seen = 0
        for (bin, number) in histogram.enumerated() {
            seen += number
            if seen * 2 > count { return Double(bin - 255) }
        }
        return 0
    }
}

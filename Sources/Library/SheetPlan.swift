/// Where a contact sheet's tiles come from and where they go: the moments of the movies
/// (one timeline: each movie follows the one before) and the grid they are laid on.
struct SheetPlan: Equatable {
    /// One tile: a moment of one movie.
    struct Moment: Equatable {
        /// The movie (index in the inputs).
        var input: Int
        /// Nanoseconds into that movie.
        var time: UInt64
    }

    var moments: [Moment]
    /// How far a keyframe may be from a moment and still stand for it (ns): a quarter of
    /// the step between moments, at most half a second. Only farther ones are decoded exactly.
    var tolerance: UInt64

    /// The moments `selection` picks in movies of `durations` (ns), at most `limit`.
    init(durations: [UInt64], selection: SheetRequest.Selection, limit: Int = SheetRequest.maximumTiles) {
        let total = durations.reduce(0, +)
        var times: [UInt64] = []
        var step: UInt64 = 0
        switch selection {
        case .count(let count):
            step = total / UInt64(max(count, 1))
            times = (0..<count).map { UInt64((Double($0) + 0.5) * Double(total) / Double(count)) }
        case .every(let every):
            step = UInt64(max(every.nanoseconds, 1))
            times = Array(stride(from: UInt64(0), to: total, by: Int(step)).prefix(limit))
        }
        moments = times.compactMap { Self.locate($0, in: durations) }
        tolerance = min(step / 4, 500_000_000)
    }

    /// The movie and time within it of `time` on the movies' timeline; nil past the end.
    static func locate(_ time: UInt64, in durations: [UInt64]) -> Moment? {
        var start: UInt64 = 0
        for (index, duration) in durations.enumerated() {
            if time < start + duration { return Moment(input: index, time: time - start) }
            start += duration
        }
        return nil
    }
}

/// The sheet's grid: tiles of one size with a caption band under each, spaced evenly.
struct SheetGrid: Equatable {
    var columns: Int
    var rows: Int
    var tileWidth: Int
    var tileHeight: Int
    static let captionHeight = 24
    static let gap = 4

    init(tiles: Int, columns: Int, tileWidth: Int, tileHeight: Int) {
        self.columns = max(1, min(columns, tiles))
        rows = max(1, (tiles + self.columns - 1) / self.columns)
        self.tileWidth = tileWidth
        self.tileHeight = tileHeight
    }

    /// The sheet's size in pixels (both even, as encoders like).
    var width: Int { (Self.gap + columns * (tileWidth + Self.gap) + 1) / 2 * 2 }
    var height: Int { (Self.gap + rows * (tileHeight + Self.captionHeight + Self.gap) + 1) / 2 * 2 }

    /// The top-left corner of tile `index` (its caption is right below it).
    func origin(of index: Int) -> (x: Int, y: Int) {
        (Self.gap + index % columns * (tileWidth + Self.gap), Self.gap + index / columns * (tileHeight + Self.captionHeight + Self.gap))
    }
}

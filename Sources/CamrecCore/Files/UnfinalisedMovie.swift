import MP4
import MediaValues
#if canImport(Glibc)
import Glibc
#endif

/// A recording that stopped without its muxer finalising it (an abort, a full disk, a
/// wedged pipeline): what it holds, measured from the file itself, not from what entered
/// the encoder (the muxer may not have written the last frames).
package struct UnfinalisedMovie {
    /// Video frames that play.
    package var frames: Int
    /// Their duration in seconds.
    package var seconds: Double
    /// Where the complete part of the file ends: a torn last fragment or block lies beyond.
    var completeEnd: UInt64
    /// How a torn tail is cut off.
    private var cut: Cut

    private enum Cut {
        case truncate
        case matroska(MatroskaScan)
    }

    /// Measures the file at `path`; nil when nothing of it can be read as `container`.
    package static func measure(path: String, container: MediaContainer, frameDuration: Double) -> UnfinalisedMovie? {
        switch container {
        case .mp4, .mov:
            guard let movie = try? FragmentedMovie.scan(path: path) else { return nil }
            return UnfinalisedMovie(frames: movie.frames, seconds: rounded(movie.seconds), completeEnd: movie.completeEnd,
                                    cut: .truncate)
        case .matroska, .webm:
            guard let scan = MatroskaScan.scan(path: path) else { return nil }
            let seconds = scan.frames > 0 ? scan.span + frameDuration : 0
            return UnfinalisedMovie(frames: scan.frames, seconds: rounded(seconds), completeEnd: scan.completeEnd,
                                    cut: .matroska(scan))
        case .avi:
            // camrec records no AVI.
            return nil
        }
    }

    /// Cuts off a torn tail (the part of a fragment or block the muxer could not finish),
    /// so that the file holds exactly what was measured. Best effort: a file that cannot
    /// be truncated still plays up to the torn part.
    package func cutTornTail(of path: String) {
        switch cut {
        case .truncate: _ = truncate(path, off_t(completeEnd))
        case .matroska(let scan): _ = scan.cutTornTail(of: path)
        }
    }

    private static func rounded(_ seconds: Double) -> Double { (seconds * 1000).rounded() / 1000 }
}

import CamrecCore
import FoundationEssentials
import MediaValues

/// Where the trimmed movie goes.
public enum TrimDestination: Sendable, Equatable {
    /// `NAME-trimmed.EXT` beside the input.
    case besideInput
    /// A path chosen by the user (`-o OUT`).
    case path(String)
    /// Replace the input, atomically (`--in-place`).
    case inPlace
}

/// A validated trim: what to cut from which file, and where the result goes.
public struct TrimRequest: Sendable, Equatable {
    /// The input movie's path.
    public var input: String
    /// New first instant on the input's presentation timeline; negative counts back from the end.
    public var start: TimeSpec?
    /// New last instant (exclusive); negative counts back from the end.
    public var end: TimeSpec?
    /// How to cut.
    public var mode: TrimMode
    /// Where the result goes.
    public var destination: TrimDestination
    /// Whether an existing output may be replaced.
    public var force: Bool

    /// Creates a request; see ``validate()`` for the checks that need no media.
    public init(
        input: String, start: TimeSpec? = nil, end: TimeSpec? = nil, mode: TrimMode = .accurate,
        destination: TrimDestination = .besideInput, force: Bool = false
    ) {
        self.input = input
        self.start = start
        self.end = end
        self.mode = mode
        self.destination = destination
        self.force = force
    }

    /// Checks what can be checked without opening the input: at least one of start and
    /// end, and start before end when both count from the same side.
    public func validate() throws(CamrecError) {
        guard start != nil || end != nil else {
            throw CamrecError(.usage, "give --start, --end or both (e.g. camrec trim --start 2 --end 5 \(input))")
        }
        if let start, let end, start.isNegative == end.isNegative, start >= end {
            throw CamrecError(.usage, "--start \(start) must be before --end \(end)")
        }
        if case .path(let path) = destination {
            guard !path.isEmpty else { throw CamrecError(.usage, "-o needs a file name") }
            // As `camrec record`: the extension names the container, and nothing is guessed.
            let ext = PathName.pathExtension(path)
            guard MediaContainer(outputExtension: ext) != nil else {
                if ext.isEmpty {
                    throw CamrecError(.usage, "cannot tell the format of '\(path)': end OUT with .mp4, .mov, .mkv or .webm (e.g. -o \(path).mp4)")
                }
                if ext.lowercased() == "avi" {
                    throw CamrecError(
                        .usage, "camrec trim writes no AVI (an AVI is cut to Matroska): end OUT with .mp4, .mov, .mkv or .webm"
                    )
                }
                throw CamrecError(.usage, "cannot write '.\(ext)' files: end OUT with .mp4, .mov, .mkv or .webm")
            }
        }
    }
}

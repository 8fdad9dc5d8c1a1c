import CamrecCore
import MediaValues
import Stills

/// `camrec sheet IN… -o OUT`: what a contact sheet is made of, checked before any movie
/// is opened.
public struct SheetRequest: Sendable, Equatable {
    /// Which moments become tiles.
    public enum Selection: Sendable, Equatable {
        /// `--count N`: N moments, each in the middle of one of N equal spans of the movies.
        case count(Int)
        /// `--every T`: a moment every T of the movies, the first at 0.
        case every(TimeSpec)
    }

    /// The movies, in order (a series' segments are one timeline).
    public var inputs: [String]
    /// The sheet to write: .jpg, .jpeg or .png.
    public var output: String
    /// Its format, from its extension.
    public var format: StillFormat
    public var selection: Selection
    /// Tiles per row.
    public var columns: Int
    /// Each tile's width in pixels (a multiple of 4); its height keeps the first movie's aspect.
    public var tileWidth: Int
    /// Whether an existing OUTPUT is replaced.
    public var force: Bool

    /// The most tiles a sheet holds.
    public static let maximumTiles = 400

    /// Checks the values as given on the command line (`count`, `every`, `columns`,
    /// `width` as text; nil: not given).
    public init(inputs: [String], output: String?, count: String?, every: String?, columns: String?, width: String?,
                force: Bool) throws(CamrecError) {
        guard !inputs.isEmpty else { throw CamrecError(.usage, "give the movies to make a sheet of, e.g. camrec sheet cam.mp4 -o sheet.jpg") }
        guard let output else { throw CamrecError(.usage, "give the sheet to write with -o, e.g. -o sheet.jpg") }
        guard let format = StillFormat(path: output) else {
            throw CamrecError(.usage, "-o \(output): a sheet is a picture: end the name with \(StillFormat.extensionList)")
        }
        self.format = format
        self.inputs = inputs
        self.output = output
        self.force = force
        switch (count, every) {
        case (.some, .some):
            throw CamrecError(.usage, "--count and --every contradict each other: give one of them")
        case (nil, .some(let text)):
            guard let step = try? TimeSpec.parse(text), step.nanoseconds > 0 else {
                throw CamrecError(.usage, "--every '\(text)': give a time above 0, e.g. 30s or 5m")
            }
            selection = .every(step)
        case (.some(let text), nil):
            guard let number = Int(text), (1...Self.maximumTiles).contains(number) else {
                throw CamrecError(.usage, "--count '\(text)': give a number of tiles from 1 to \(Self.maximumTiles), e.g. 12")
            }
            selection = .count(number)
        case (nil, nil):
            selection = .count(12)
        }
        if let columns {
            guard let number = Int(columns), (1...20).contains(number) else {
                throw CamrecError(.usage, "--columns '\(columns)': give a number from 1 to 20, e.g. 4")
            }
            self.columns = number
        } else {
            self.columns = 4
        }
        if let width {
            guard let number = Int(width), (64...1920).contains(number) else {
                throw CamrecError(.usage, "--width '\(width)': give a tile width in pixels from 64 to 1920, e.g. 320")
            }
            tileWidth = number / 4 * 4
        } else {
            tileWidth = 320
        }
    }
}

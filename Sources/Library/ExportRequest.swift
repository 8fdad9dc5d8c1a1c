import CamrecCore
import MediaValues

/// `camrec export SERIES [--from T] [--to T] -o OUT`: what to export, checked before any
/// file is read.
public struct ExportRequest: Sendable, Equatable {
    /// The series: an OUTPUT as given to `camrec record` (`cam.mp4`), or one of its files.
    public var series: String
    /// The first instant (nil: the series' first frame).
    public var from: ExportTime?
    /// The end, exclusive (nil: the series' end).
    public var to: ExportTime?
    /// The file to write (.mp4 or .mov); several outputs are `NAME-1.EXT`, `NAME-2.EXT`, ….
    public var output: String
    /// `--split-at-gaps`: one output per stretch without a gap, instead of chapters.
    public var splitAtGaps: Bool
    /// Whether existing outputs are replaced.
    public var force: Bool
    /// `--utc`: times without a zone are UTC, and times are shown in UTC.
    public var utc: Bool
    /// A time-lapse instead of a cut (`--speed`, `--timelapse`), or nil.
    public var timelapse: Timelapse?
    /// `--reencode`: movies whose parameters differ (another size or codec) are joined into
    /// one output by encoding them again, instead of written as outputs of their own.
    public var reencode: Bool

    /// How fast a time-lapse runs.
    public enum Timelapse: Sendable, Equatable {
        /// `--speed N`: N times faster than real time (a frame every N frame intervals).
        case speed(Double)
        /// `--timelapse T`: a frame every T of capture time (nanoseconds).
        case interval(Int64)

        /// Nanoseconds of capture time per frame of the time-lapse, for a series whose
        /// frames last `frameDuration` seconds.
        public func step(frameDuration: Double) -> Int64 {
            switch self {
            case .speed(let factor): Int64((factor * frameDuration * 1e9).rounded())
            case .interval(let nanoseconds): nanoseconds
            }
        }
    }

    /// Checks the values as given on the command line (nil: not given).
    public init(
        series: [String], from: String?, to: String?, output: String?, splitAtGaps: Bool, force: Bool, utc: Bool,
        speed: String? = nil, timelapse: String? = nil, reencode: Bool = false
    ) throws(CamrecError) {
        guard let first = series.first else {
            throw CamrecError(.usage, "give the series to export, e.g. camrec export cam.mp4 --from 10:04:30 --to 10:07:00 -o out.mp4")
        }
        guard series.count == 1 else {
            throw CamrecError(.usage, "give one series to export (got \(series.count): \(series.joined(separator: " "))); its name, e.g. cam.mp4")
        }
        guard let output, !output.isEmpty else { throw CamrecError(.usage, "give the file to write with -o, e.g. -o out.mp4") }
        let ext = PathName.pathExtension(output).lowercased()
        guard ext == "mp4" || ext == "mov" else {
            throw CamrecError(.usage, "-o \(output): camrec export writes MP4 or MOV: end the name with .mp4 or .mov")
        }
        self.series = first
        self.from = try from.map { text throws(CamrecError) in try ExportTime.parse(text, option: "--from") }
        self.to = try to.map { text throws(CamrecError) in try ExportTime.parse(text, option: "--to") }
        self.output = output
        self.splitAtGaps = splitAtGaps
        self.force = force
        self.utc = utc
        self.reencode = reencode
        switch (speed, timelapse) {
        case (.some, .some):
            throw CamrecError(.usage, "--speed and --timelapse say the same thing two ways: give one of them")
        case (.some(let text), nil):
            guard let factor = Double(text), factor.isFinite, factor > 1, factor <= 100_000 else {
                throw CamrecError(.usage, "--speed '\(text)': give how many times faster than real time, above 1, e.g. 60")
            }
            self.timelapse = .speed(factor)
        case (nil, .some(let text)):
            guard let interval = try? TimeSpec.parse(text), interval.nanoseconds > 0 else {
                throw CamrecError(.usage, "--timelapse '\(text)': give the capture time between frames, e.g. 2s or 1m")
            }
            self.timelapse = .interval(interval.nanoseconds)
        case (nil, nil):
            self.timelapse = nil
        }
    }

    /// The file names of `count` outputs: OUT alone, or `NAME-1.EXT` … `NAME-N.EXT` beside it.
    public func outputPaths(count: Int) -> [String] {
        guard count > 1 else { return [output] }
        let (stem, ext) = OutputFile.split(output)
        return (1...count).map { "\(stem)-\($0)\(ext)" }
    }
}

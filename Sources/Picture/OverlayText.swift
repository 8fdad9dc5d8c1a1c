#if canImport(Glibc)
import Glibc
#endif
import CamrecCore
import MediaValues

/// The text of `--overlay`: strftime fields (`%Y-%m-%d %H:%M:%S`, …) filled from the
/// frame's capture time, and camrec's own fields `{frame}` (the frame's index in the
/// movie, from 0), `{elapsed}` (the frame's time in the movie, `HH:MM:SS`) and `{device}`
/// (the camera). Parsed once; `render` makes one frame's text.
public struct OverlayText: Sendable, Equatable {
    /// camrec's own fields.
    public enum Field: String, Sendable, CaseIterable {
        case frame, elapsed, device
    }

    /// A piece of the text.
    enum Piece: Sendable, Equatable {
        /// Text for strftime (literal text and `%` fields).
        case strftime(String)
        case field(Field)
    }

    /// The text as given.
    public let template: String
    let pieces: [Piece]

    /// Parses `--overlay TEXT`. `{name}` must be one of the fields (a misspelt field is an
    /// error, not text); other braces are text.
    public init(_ template: String) throws(ValueError) {
        guard !template.isEmpty else { throw ValueError("the overlay text is empty: give the text to burn in, e.g. '%Y-%m-%d %H:%M:%S'") }
        guard !template.utf8.contains(0) else { throw ValueError("the overlay text has a NUL character") }
        self.template = template
        var pieces: [Piece] = []
        var literal = ""
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            literal += rest[..<open]
            let after = rest[rest.index(after: open)...]
            if let close = after.firstIndex(of: "}"), after[..<close].allSatisfy({ $0.isLetter || $0 == "_" || $0 == "-" }),
               !after[..<close].isEmpty {
                let name = String(after[..<close])
                guard let field = Field(rawValue: name) else {
                    throw ValueError("unknown overlay field {\(name)}: use " + Field.allCases.map { "{\($0.rawValue)}" }.joined(separator: ", ")
                                     + " or strftime fields such as %H:%M:%S")
                }
                if !literal.isEmpty { pieces.append(.strftime(literal)) }
                literal = ""
                pieces.append(.field(field))
                rest = after[after.index(after: close)...]
            } else {
                literal += "{"
                rest = after
            }
        }
        literal += rest
        if !literal.isEmpty { pieces.append(.strftime(literal)) }
        self.pieces = pieces
    }

    /// Whether the text changes from frame to frame (it has any field at all).
    public var varies: Bool {
        pieces.contains { piece in
            if case .strftime(let text) = piece { return text.contains("%") }
            return true
        }
    }

    /// The values one frame's text is made from.
    public struct Frame: Sendable, Equatable {
        /// When the camera took the frame: seconds since the Unix epoch.
        public var captureTime: WallTime
        /// The frame's index in the movie, from 0.
        public var index: Int
        /// The frame's time in the movie, nanoseconds from the first frame.
        public var elapsed: UInt64
        /// The camera's name or path.
        public var device: String

        public init(captureTime: WallTime, index: Int, elapsed: UInt64, device: String) {
            self.captureTime = captureTime
            self.index = index
            self.elapsed = elapsed
            self.device = device
        }
    }

    /// The text for one frame; strftime fields in the local time zone (`TZ`).
    public func render(_ frame: Frame) -> String {
        var calendar = tm()
        var seconds = time_t(frame.captureTime.seconds)
        localtime_r(&seconds, &calendar)
        var text = ""
        for piece in pieces {
            switch piece {
            case .strftime(let format): text += Self.strftime(format, calendar)
            case .field(.frame): text += String(frame.index)
            case .field(.elapsed): text += Self.clock(nanoseconds: frame.elapsed)
            case .field(.device): text += frame.device
            }
        }
        return text
    }

    /// `HH:MM:SS` (hours grow past 99 when they must).
    static func clock(nanoseconds: UInt64) -> String {
        let total = nanoseconds / 1_000_000_000
        func two(_ value: UInt64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return two(total / 3600) + ":" + two(total / 60 % 60) + ":" + two(total % 60)
    }

    /// C's strftime on `format`, with a buffer that grows for long results.
    static func strftime(_ format: String, _ calendar: tm) -> String {
        guard format.contains("%") else { return format }
        var calendar = calendar
        var capacity = 256
        while capacity <= 65_536 {
            var buffer = [CChar](repeating: 0, count: capacity)
            let count = Glibc.strftime(&buffer, capacity, format, &calendar)
            // 0 is also the right answer for a format that makes no text (e.g. "%p" in
            // some locales); only a full buffer means "too small".
            if count > 0 || capacity > format.utf8.count * 64 {
                return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
            capacity *= 4
        }
        return format
    }
}

/// When the camera took a frame, on the wall clock.
///
/// A live source stamps each buffer with its running time at capture: v4l2src takes the
/// driver's capture timestamp (CLOCK_MONOTONIC) and subtracts the pipeline's base time, so
/// the frame was taken at pipeline clock time `baseTime + runningTime`. Reading the
/// pipeline clock and the wall clock together says how long ago that was; the wall clock
/// minus that age is the capture moment. Nothing here depends on when the frame is drawn:
/// a frame held up in a queue still gets the time it was taken.
public enum CaptureTime {
    /// The capture moment of a frame at `runningTime` (the buffer's PTS, nanoseconds), in a
    /// pipeline whose base time is `baseTime`, given the pipeline clock's time `clockNow`
    /// read at the wall clock's `wallNow`.
    public static func of(runningTime: UInt64, baseTime: UInt64, clockNow: UInt64, wallNow: WallTime) -> WallTime {
        let taken = baseTime &+ runningTime
        let age = clockNow >= taken ? Int64(clamping: clockNow - taken) : -Int64(clamping: taken - clockNow)
        return wallNow.adding(nanoseconds: -age)
    }
}

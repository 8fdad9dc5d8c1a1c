import CamrecCore

/// What text recognition found in one picture (`camrec text`, `camrec still --text`): its
/// words with their boxes and confidences, grouped into lines and blocks as Tesseract read
/// them, and where and when the picture was taken. The `text` JSON line.
public struct TextResult: Encodable, Sendable, Equatable {
    /// One recognised word (Vision's observation with its top candidate).
    public struct Word: Encodable, Sendable, Equatable {
        public var text: String
        /// Tesseract's confidence, 0-1.
        public var confidence: Double
        /// Its box in the picture's pixels: x, y (top left), width, height.
        public var box: [Int]
        /// The same box as fractions (0-1) of the picture's width and height, from its top
        /// left (Vision's normalised box counts from the bottom left).
        public var normalized: [Double]
        /// The line it belongs to (its index in `lines`) and that line's block.
        public var line: Int
        public var block: Int
    }

    /// One line of words.
    public struct Line: Encodable, Sendable, Equatable {
        /// Its words' texts, joined by spaces.
        public var text: String
        /// Its block (counted from 0).
        public var block: Int
        /// The box around its words (pixels: x, y, width, height).
        public var box: [Int]
        /// Its words' mean confidence, 0-1.
        public var confidence: Double
    }

    /// The picture: a still, or a movie.
    public var input: String
    /// A movie's frame: its time in the movie (seconds, to the millisecond).
    public var time: Double?
    /// When the picture was captured (ISO 8601 with milliseconds), when it says.
    public var captured: String?
    /// The picture's size.
    public var width: Int
    public var height: Int
    /// `--region`: the part recognised (nil: all of it).
    public var region: TextRegion?
    /// The languages' models used ("eng+deu").
    public var languages: String
    /// All lines' texts, one a line.
    public var text: String
    public var lines: [Line]
    public var words: [Word]
    /// While recording: the frame's index in its movie (from 0).
    public var frame: Int?
    /// While recording, why it was read: "periodic" (`--text-every`), "control" (`camrec
    /// ctl SOCKET text`) or "still" (a still taken with `--text`).
    public var trigger: String?
    /// `--text-every`: the frames due since the last reading that were passed over, the
    /// reader being busy.
    public var skipped: Int?
    /// A still taken while recording with `--text`: the file its text was written to (NAME.txt).
    public var textFile: String?

    /// A raw word as the engine gives it: its box in the picture's pixels.
    package struct RawWord: Equatable, Sendable {
        var text: String
        var confidence: Double
        var left: Int, top: Int, right: Int, bottom: Int
        var block: Int
        var line: Int
    }

    /// The result of `words` (boxes already in the picture's pixels) found in a picture of
    /// `width` × `height`. Lines are renumbered from 0 in the order met; words without
    /// letters or digits, and words below `minimumConfidence` (0-1), are left out.
    package init(input: String, time: Double?, captured: String?, width: Int, height: Int, region: TextRegion?, languages: String,
         words raw: [RawWord], minimumConfidence: Double = 0) {
        self.input = input
        self.time = time
        self.captured = captured
        self.width = width
        self.height = height
        self.region = region
        self.languages = languages
        var lines: [Line] = []
        var words: [Word] = []
        var lineOf: [Int: Int] = [:]
        var members: [[RawWord]] = []
        for word in raw where word.confidence >= minimumConfidence && word.text.contains(where: { $0.isLetter || $0.isNumber }) {
            let index: Int
            if let known = lineOf[word.line] {
                index = known
            } else {
                index = members.count
                lineOf[word.line] = index
                members.append([])
            }
            members[index].append(word)
            let box = [word.left, word.top, word.right - word.left, word.bottom - word.top]
            words.append(Word(text: word.text, confidence: Self.round(word.confidence), box: box,
                              normalized: Self.normalize(box, width: width, height: height), line: index, block: word.block))
        }
        for group in members {
            let left = group.map(\.left).min() ?? 0, top = group.map(\.top).min() ?? 0
            let right = group.map(\.right).max() ?? 0, bottom = group.map(\.bottom).max() ?? 0
            let confidence = group.map(\.confidence).reduce(0, +) / Double(max(group.count, 1))
            lines.append(Line(text: group.map(\.text).joined(separator: " "), block: group.first?.block ?? 0,
                              box: [left, top, right - left, bottom - top], confidence: Self.round(confidence)))
        }
        self.lines = lines
        self.words = words
        text = lines.map(\.text).joined(separator: "\n")
    }

    private static func normalize(_ box: [Int], width: Int, height: Int) -> [Double] {
        let w = Double(max(width, 1)), h = Double(max(height, 1))
        return [Double(box[0]) / w, Double(box[1]) / h, Double(box[2]) / w, Double(box[3]) / h].map { round($0, places: 4) }
    }

    private static func round(_ value: Double, places: Int = 3) -> Double {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        return (value * scale).rounded() / scale
    }
}

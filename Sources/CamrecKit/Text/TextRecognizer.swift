import CTesseractShim
#if canImport(Glibc)
import Glibc
#endif

/// One Tesseract instance with its languages loaded (once: loading a model costs more than
/// reading a picture), and how camrec reads a camera's picture with it: the region cut
/// out, small pictures scaled up, light text on a dark ground inverted, and a second
/// reading in the other polarity (light text's dark outlines taken away) when the first
/// finds little, the two merged word by word. Not for sharing between threads: one per
/// thread that recognises.
final class TextRecognizer {
    private let engine: OpaquePointer
    /// The languages, as Tesseract takes them ("eng+deu").
    let languages: String

    /// Below this mean confidence (0-1), or with no word, a picture is read again in the
    /// other polarity and the two readings merged (``merge(_:_:)``).
    static let secondReadingBelow = 0.7

    /// The dark outline taken away from light text in the second reading: dark lines
    /// narrower than 2 × this + 1 pixels, in the picture's own pixels (a camera's clock or
    /// a caption is outlined 1-2 px wide). More would join the letters of small light text
    /// whose outlines touch.
    static let outlineRadius = 1

    /// Loads libtesseract and the models of `languages` (checked to be installed first).
    init(languages: [String]) throws(CamrecError) {
        let folder = try TesseractLibrary.prepare(languages)
        let joined = languages.joined(separator: "+")
        var failure: UnsafeMutablePointer<CChar>?
        // Page segmentation 11, sparse text: a camera's picture is a scene with text here
        // and there (labels, meters, screens), not a page of columns.
        guard let engine = camrec_tesseract_new(folder, joined, 11, &failure) else {
            defer { free(failure) }
            let why = failure.map { String(cString: $0) } ?? "unknown failure"
            throw CamrecError(.unavailable, "\(why) from \(folder): reinstall \(languages.map(TesseractLibrary.package(of:)).joined(separator: " "))")
        }
        self.engine = engine
        self.languages = joined
    }

    deinit { camrec_tesseract_free(engine) }

    /// How much a picture (or region) of `width` × `height` is scaled up before reading:
    /// 3× up to 640 pixels on its longer side, 2× up to 1280, else as it is, so that text
    /// a dozen pixels high reaches the 20-30 px the models were trained on while a large
    /// picture does not cost several times the time.
    static func scale(width: Int, height: Int) -> Int {
        let longer = max(width, height)
        return longer <= 640 ? 3 : longer <= 1280 ? 2 : 1
    }

    /// The words in `picture` (within `region`, nil: all of it), with their boxes in the
    /// picture's pixels.
    func recognize(_ picture: GreyImage, region: TextRegion?) throws(CamrecError) -> [TextResult.RawWord] {
        var part = picture
        if let region {
            guard let cropped = picture.cropped(to: region) else {
                throw CamrecError(.usage, "--region \(region.x),\(region.y),\(region.width),\(region.height) lies outside the \(picture.width)x\(picture.height) picture")
            }
            part = cropped
        }
        let factor = Self.scale(width: part.width, height: part.height)
        // First the text that stands out of the ground: dark on a light one, light on a dark one.
        let lightOnDark = part.looksLightOnDark
        let scaled = part.scaled(by: factor)
        let first = try read(lightOnDark ? scaled.inverted() : scaled)
        var best = first
        if Self.mean(first) < Self.secondReadingBelow {
            // Then the text of the other polarity. Light text on a light ground is legible
            // only by a dark outline or shadow around its letters (a camera's clock,
            // captions, signs over a busy scene): that outline, thinner than a letter's
            // stroke, is taken away first, or it would be read as the ink and the letters
            // as hollow shapes. (Not the reverse: dark text on a dark picture is mostly a
            // dark-on-light label in a dark scene, whose small letters taking away thin
            // light details would join.)
            let other = lightOnDark ? scaled : part.closed(radius: Self.outlineRadius).scaled(by: factor).inverted()
            let second = try read(other)
            best = Self.merge(first, second)
        }
        let originX = region.map { max(0, $0.x) } ?? 0, originY = region.map { max(0, $0.y) } ?? 0
        return best.map { word in
            var moved = word
            moved.left = originX + word.left / factor
            moved.top = originY + word.top / factor
            moved.right = originX + (word.right + factor - 1) / factor
            moved.bottom = originY + (word.bottom + factor - 1) / factor
            return moved
        }
    }

    private static func mean(_ words: [TextResult.RawWord]) -> Double {
        words.isEmpty ? 0 : words.map(\.confidence).reduce(0, +) / Double(words.count)
    }

    /// How much a reading of a place is worth: its characters, each weighed by its word's
    /// confidence squared, so that junk (a few long words of confidence 0.2-0.4 from the
    /// busy parts of a scene) does not outweigh a well-read word it overlaps.
    private static func score(_ words: [TextResult.RawWord]) -> Double {
        words.reduce(0) { $0 + $1.confidence * $1.confidence * Double($1.text.count) }
    }

    /// Two readings of one picture in the two polarities, as one: a picture holds text of
    /// both (a dark label and a light clock), each read well in one of them and as junk or
    /// nothing in the other, and even one line may be read better in parts (the letters
    /// in one, the digits in the other). Word by word: a word of the second that overlaps
    /// none of the first's is added; where words overlap, the second's replaces the
    /// first's when it scores more (``score(_:)``), and its line then joins theirs; a line
    /// of the second that replaced nothing joins a line of the first beside it in its row.
    /// The second's other lines and blocks are numbered after the first's. The lines come
    /// top to bottom (lines side by side left to right), each line's words left to right.
    static func merge(_ first: [TextResult.RawWord], _ second: [TextResult.RawWord]) -> [TextResult.RawWord] {
        typealias Word = TextResult.RawWord
        func overlap(_ a: Word, _ b: Word) -> Bool {
            a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom
        }
        let offset = (first.map { max($0.line, $0.block) }.max() ?? -1) + 1
        var kept = first.map { (word: $0, second: false) }
        // A line of the second reading that replaced words of one of the first's joins it.
        var joins: [Int: (line: Int, block: Int)] = [:]
        for word in second {
            // Only the first's words are rivals: the second's own words do not compete.
            let rivals = kept.indices.filter { !kept[$0].second && overlap(kept[$0].word, word) }
            guard score([word]) > score(rivals.map { kept[$0].word }) else { continue }
            if let rival = rivals.first, joins[word.line] == nil {
                joins[word.line] = (kept[rival].word.line, kept[rival].word.block)
            }
            kept = kept.indices.filter { !rivals.contains($0) }.map { kept[$0] } + [(word, true)]
        }
        var words = kept.map { entry -> Word in
            guard entry.second else { return entry.word }
            var word = entry.word
            (word.line, word.block) = joins[word.line] ?? (word.line + offset, word.block + offset)
            return word
        }
        typealias Box = (left: Int, top: Int, right: Int, bottom: Int)
        // Where a line is: its words of some confidence (junk's boxes can lie far from its line).
        func box(_ group: [Word]) -> Box {
            let sure = group.filter { $0.confidence >= 0.5 }
            let placed = sure.isEmpty ? group : sure
            return (placed.map(\.left).min() ?? 0, placed.map(\.top).min() ?? 0, placed.map(\.right).max() ?? 0,
                    placed.map(\.bottom).max() ?? 0)
        }
        func lines(_ words: [Word]) -> [(line: Int, words: [Word], box: Box)] {
            var order: [Int] = []
            var members: [Int: [Word]] = [:]
            for word in words {
                if members[word.line] == nil { order.append(word.line) }
                members[word.line, default: []].append(word)
            }
            return order.compactMap { line in members[line].map { (line, $0.sorted { $0.left < $1.left }, box($0)) } }
        }
        func middle(_ box: Box) -> Int { (box.top + box.bottom) / 2 }
        // A line of the second that replaced nothing joins a line of the first in its row
        // and next to it (the rest of a line the first read in part).
        let found = lines(words)
        var moves: [Int: (line: Int, block: Int)] = [:]
        for line in found where line.line >= offset {
            let mine = line.box
            let target = found.first { other in
                let theirs = other.box
                return other.line < offset && middle(mine) > theirs.top && middle(mine) < theirs.bottom
                    && middle(theirs) > mine.top && middle(theirs) < mine.bottom
                    && max(theirs.left - mine.right, mine.left - theirs.right) <= mine.bottom - mine.top
            }
            if let target, let head = target.words.first { moves[line.line] = (target.line, head.block) }
        }
        words = words.map { word in
            var moved = word
            if let move = moves[word.line] { (moved.line, moved.block) = move }
            return moved
        }
        // Top to bottom; lines side by side (one's middle within the other's height) left to right.
        var rows: [[(line: Int, words: [Word], box: Box)]] = []
        for line in lines(words).sorted(by: { $0.box.top < $1.box.top }) {
            if let head = rows.last?.first, middle(line.box) < head.box.bottom {
                rows[rows.count - 1].append(line)
            } else {
                rows.append([line])
            }
        }
        return rows.flatMap { $0.sorted { $0.box.left < $1.box.left } }.flatMap(\.words)
    }

    /// One pass of Tesseract over a grey picture.
    private func read(_ image: GreyImage) throws(CamrecError) -> [TextResult.RawWord] {
        var list: UnsafeMutablePointer<CamrecTextWord>?
        var count: Int32 = 0
        var failure: UnsafeMutablePointer<CChar>?
        let ok = image.pixels.withUnsafeBufferPointer { pixels in
            camrec_tesseract_recognize(engine, pixels.baseAddress, Int32(image.width), Int32(image.height), Int32(image.width),
                                       300, &list, &count, &failure)
        }
        guard ok != 0 else {
            defer { free(failure) }
            throw CamrecError(.failure, failure.map { String(cString: $0) } ?? "Tesseract could not read the picture")
        }
        defer { camrec_text_words_free(list, count) }
        guard let list else { return [] }
        return (0..<Int(count)).map { index in
            let word = list[index]
            return TextResult.RawWord(text: word.text.map { String(cString: $0) } ?? "", confidence: Double(word.confidence) / 100,
                                      left: Int(word.left), top: Int(word.top), right: Int(word.right), bottom: Int(word.bottom),
                                      block: Int(word.block), line: Int(word.line))
        }
    }
}

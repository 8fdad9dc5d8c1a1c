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
    static func score(_ words: [TextResult.RawWord]) -> Double {
        words.reduce(0) { $0 + $1.confidence * $1.confidence * Double($1.text.count) }
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

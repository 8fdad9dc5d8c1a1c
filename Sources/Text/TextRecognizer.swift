import CamrecCore
import CTesseractShim
#if canImport(Glibc)
import Glibc
#endif

/// One Tesseract instance with its languages loaded (once: loading a model costs more than
/// reading a picture), and how camrec reads a camera's picture with it: the region cut
/// out, small pictures scaled up, light text on a dark ground inverted, and a second
/// reading in the other polarity (light text's dark outlines taken away) when the first
/// finds little, the two merged word by word. Not for sharing between threads: one per
/// thread that recognises (with, when made `concurrent`, a ``SecondReader`` of its own).
package final class TextRecognizer {
    private let engine: OpaquePointer
    /// Where the models are, for the helper.
    private let folder: String
    /// Whether a busy picture's polarities are read at once (by `helper`).
    private let concurrent: Bool
    /// Reads a busy picture's other polarity while `engine` reads the first: started with
    /// the first busy picture (loading its models while `engine` reads), so that a run of
    /// plain pictures never loads them twice. nil: not (yet) needed.
    private var helper: SecondReader?
    /// The languages, as Tesseract takes them ("eng+deu").
    package let languages: String

    /// Below this mean confidence (0-1), or with no word, a picture is read again in the
    /// other polarity and the two readings merged (``merge(_:_:)``).
    static let secondReadingBelow = 0.7

    /// The dark outline taken away from light text in the second reading: dark lines
    /// narrower than 2 × this + 1 pixels, in the picture's own pixels (a camera's clock or
    /// a caption is outlined 1-2 px wide). More would join the letters of small light text
    /// whose outlines touch.
    static let outlineRadius = 1

    /// Tesseract's page segmentation mode: 11, sparse text. A camera's picture is a scene
    /// with text here and there (labels, meters, screens), not a page of columns.
    static let pageSegmentation: Int32 = 11

    /// Loads libtesseract and the models of `languages` (checked to be installed first).
    /// `concurrent`: a busy picture's two polarities are read at once, by a second instance
    /// on a thread of its own (``SecondReader``, loaded with the first busy picture), for a
    /// reading's latency (`camrec text`, stills); the words found are the same. Not while
    /// recording, where the reading takes only the CPU left over, one core at a time.
    package init(languages: [String], concurrent: Bool = false) throws(CamrecError) {
        let folder = try TesseractLibrary.prepare(languages)
        let joined = languages.joined(separator: "+")
        var failure: UnsafeMutablePointer<CChar>?
        guard let engine = camrec_tesseract_new(folder, joined, Self.pageSegmentation, &failure) else {
            defer { free(failure) }
            let why = failure.map { String(cString: $0) } ?? "unknown failure"
            throw CamrecError(.unavailable, "\(why) from \(folder): reinstall \(languages.map(TesseractLibrary.package(of:)).joined(separator: " "))")
        }
        self.engine = engine
        self.folder = folder
        self.concurrent = concurrent
        self.languages = joined
    }

    /// How many pictures had their other polarity read at once by the helper (0 without one).
    var readingsAhead: Int { helper?.readings ?? 0 }

    deinit {
        helper?.close()
        camrec_tesseract_free(engine)
    }

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
    package func recognize(_ picture: GreyImage, region: TextRegion?) throws(CamrecError) -> [TextResult.RawWord] {
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
        // A busy picture's other polarity is read at the same time, by the helper: its
        // reading is used only where one after the other would have made it (the first
        // reading unsure), so the words are the same either way.
        var ahead = false
        if concurrent, part.looksBusy {
            let helper = self.helper ?? SecondReader(folder: folder, languages: languages)
            self.helper = helper
            ahead = helper.begin(.init(picture: part, factor: factor, lightOnDark: lightOnDark))
        }
        let scaled = part.scaled(by: factor)
        let first: [TextResult.RawWord]
        do {
            first = try Self.read(lightOnDark ? scaled.inverted() : scaled, with: engine)
        } catch {
            if ahead { _ = helper?.end() }
            throw error
        }
        var best = first
        let second: Result<[TextResult.RawWord], CamrecError>? = ahead ? helper?.end() : nil
        if Self.mean(first) < Self.secondReadingBelow {
            let other: [TextResult.RawWord]
            if let second {
                other = try second.get()
            } else {
                other = try Self.read(Self.otherPolarity(of: part, scaled: scaled, factor: factor, lightOnDark: lightOnDark), with: engine)
            }
            best = Self.merge(first, other)
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

    /// The picture of the text of the polarity read second, `factor` times the size of
    /// `part` (`scaled`: `part` scaled already, nil: scaled here). Light text on a light
    /// ground is legible only by a dark outline or shadow around its letters (a camera's
    /// clock, captions, signs over a busy scene): that outline, thinner than a letter's
    /// stroke, is taken away first, or it would be read as the ink and the letters as
    /// hollow shapes. (Not the reverse: dark text on a dark picture is mostly a
    /// dark-on-light label in a dark scene, whose small letters taking away thin light
    /// details would join.)
    static func otherPolarity(of part: GreyImage, scaled: GreyImage?, factor: Int, lightOnDark: Bool) -> GreyImage {
        lightOnDark ? scaled ?? part.scaled(by: factor) : part.closed(radius: outlineRadius).scaled(by: factor).inverted()
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

    /// One pass of Tesseract (`engine`, used by this thread only) over a grey picture.
    static func read(_ image: GreyImage, with engine: OpaquePointer) throws(CamrecError) -> [TextResult.RawWord] {
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

import CamrecCore
import GStreamer
import MediaValues

/// `--mask-image FILE.png`: a privacy mask drawn as a picture, of any size (it is scaled to
/// the picture): its dark opaque pixels (below mid-grey, alpha above half) are masked, light
/// or transparent ones are not. Read once, at its own size, into rectangles (runs of dark
/// pixels, rows alike merged) as fractions of its size, so that camrecmask fills exactly those
/// pixels, scaled outwards to each picture it masks.
public enum MaskImage {
    /// The most rectangles a mask image may make: a mask of shapes makes a few hundred, a
    /// photograph or noise millions, which no element property should carry.
    public static let maximumRectangles = 20_000
    /// The largest side read.
    public static let maximumSide = 8192

    /// Reads `path`: exit 66 (as for a missing input) when there is no such file, 65 when
    /// it is not a PNG, too large, masks nothing, or is too detailed.
    public static func load(_ path: String) throws(CamrecError) -> [MaskRectangle] {
        let option = "--mask-image"
        let image = try OverlayImage.load(path, position: .topLeft, option: option, missing: .noCamera)
        guard image.size.width <= maximumSide, image.size.height <= maximumSide else {
            throw CamrecError(.invalidInput, "\(option) \(path) is \(image.size): give a PNG at most \(maximumSide) pixels on a side (the picture's own size is best)")
        }
        let location = "\"" + Pipeline.escapeForParser(image.path) + "\""
        let description = "filesrc location=\(location) ! pngdec ! videoconvert"
            + " ! video/x-raw,format=RGBA ! appsink name=sink"
        var pixels: [UInt8] = []
        do {
            let pipeline = try Pipeline.withBuiltIns(description)
            defer { _ = try? pipeline.setState(.null) }
            let sink = try AppSink(pipeline.element(named: "sink"))
            _ = try pipeline.setState(.paused)
            pixels = sink.pullPreroll(timeoutNanoseconds: 10_000_000_000)?.bytes ?? []
        } catch {
            throw CamrecError(.invalidInput, "\(option) \(path): cannot read the image (\(error)): give a PNG file")
        }
        let (width, height) = (image.size.width, image.size.height)
        guard pixels.count >= width * height * 4 else {
            throw CamrecError(.invalidInput, "\(option) \(path): cannot read the image: give a PNG file")
        }
        guard let rectangles = rectangles(rgba: pixels, width: width, height: height) else {
            throw CamrecError(.invalidInput, "\(option) \(path) is too detailed for a mask (more than \(maximumRectangles) rectangles): draw it with solid black shapes on white")
        }
        guard !rectangles.isEmpty else {
            throw CamrecError(.invalidInput, "\(option) \(path) has no dark pixels, so nothing would be masked: paint black what must be hidden, on white or transparent")
        }
        return rectangles
    }

    /// Whether a pixel of RGBA bytes is masked: opaque (alpha 128 or more) and dark (its
    /// luma, BT.601, below 128).
    static func isMasked(_ r: UInt8, _ g: UInt8, _ b: UInt8, _ a: UInt8) -> Bool {
        a >= 128 && (299 * Int(r) + 587 * Int(g) + 114 * Int(b)) < 128_000
    }

    /// The masked pixels of an RGBA picture (rows of `width` × 4 bytes) as rectangles in
    /// fractions of its size: each row's runs, a run continued while the rows below have
    /// it too. nil when there would be more than `maximumRectangles`.
    static func rectangles(rgba: [UInt8], width: Int, height: Int) -> [MaskRectangle]? {
        var found: [PixelRect] = []
        // Runs open from earlier rows: (start, end) → the first row.
        var open: [Int: (end: Int, top: Int)] = [:]
        for row in 0...height {
            var runs: [Int: Int] = [:]
            if row < height {
                var column = 0
                let base = row * width * 4
                while column < width {
                    let at = base + column * 4
                    guard isMasked(rgba[at], rgba[at + 1], rgba[at + 2], rgba[at + 3]) else {
                        column += 1
                        continue
                    }
                    let start = column
                    while column < width, isMasked(rgba[base + column * 4], rgba[base + column * 4 + 1],
                                                   rgba[base + column * 4 + 2], rgba[base + column * 4 + 3]) {
                        column += 1
                    }
                    runs[start] = column
                }
            }
            // A run that does not go on in this row ends at it.
            for (start, run) in open where runs[start] != run.end {
                found.append(PixelRect(x: start, y: run.top, width: run.end - start, height: row - run.top))
                open[start] = nil
            }
            for (start, end) in runs where open[start] == nil {
                open[start] = (end, row)
            }
            if found.count + open.count > maximumRectangles { return nil }
        }
        found.sort { ($0.y, $0.x) < ($1.y, $1.x) }
        let (w, h) = (Double(width), Double(height))
        return found.map { rect in
            MaskRectangle(x: .fraction(Double(rect.x) / w), y: .fraction(Double(rect.y) / h),
                          width: .fraction(Double(rect.width) / w), height: .fraction(Double(rect.height) / h))
        }
    }
}

import CamrecCore
import MediaValues

/// A grey picture (one byte a pixel, rows packed) and what text recognition does to it
/// before Tesseract sees it: cut to a region, scaled up, inverted. Plain values, no library.
package struct GreyImage: Equatable, Sendable {
    /// Its size in pixels.
    package var width: Int
    package var height: Int
    /// `height` rows of `width` bytes.
    package var pixels: [UInt8]

    /// `pixels` as `width` × `height` grey pixels.
    package init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(pixels.count == width * height, "a grey picture holds width × height bytes")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// Packed RGB as grey (ITU-R BT.601 luma, in integers). Nil when `rgb` is too short.
    package init?(rgb: [UInt8], width: Int, height: Int) {
        guard width > 0, height > 0, rgb.count >= width * height * 3 else { return nil }
        var grey = [UInt8](repeating: 0, count: width * height)
        rgb.withUnsafeBufferPointer { source in
            grey.withUnsafeMutableBufferPointer { target in
                for index in 0..<(width * height) {
                    let r = Int(source[index * 3]), g = Int(source[index * 3 + 1]), b = Int(source[index * 3 + 2])
                    target[index] = UInt8((r * 77 + g * 150 + b * 29 + 128) >> 8)
                }
            }
        }
        self.init(width: width, height: height, pixels: grey)
    }

    /// The part inside `region` (clipped to the picture); nil when nothing of it is inside.
    func cropped(to region: TextRegion) -> GreyImage? {
        let left = max(0, region.x), top = max(0, region.y)
        let right = min(width, region.x + region.width), bottom = min(height, region.y + region.height)
        guard right > left, bottom > top else { return nil }
        var part = [UInt8]()
        part.reserveCapacity((right - left) * (bottom - top))
        for row in top..<bottom { part += pixels[(row * width + left)..<(row * width + right)] }
        return GreyImage(width: right - left, height: bottom - top, pixels: part)
    }

    /// Scaled by `factor` (≥ 1) with bilinear interpolation: small letters get the pixels
    /// Tesseract's models were trained on (about 20-30 px high) instead of being read as noise.
    func scaled(by factor: Int) -> GreyImage {
        guard factor > 1 else { return self }
        let newWidth = width * factor, newHeight = height * factor
        // Where each output column and row samples the picture (computed once, not once a
        // pixel: a 1280x720 picture scaled 2x has 3.7 million pixels).
        let columns = Self.samples(count: newWidth, factor: factor, limit: width)
        let rows = Self.samples(count: newHeight, factor: factor, limit: height)
        var target = [UInt8](repeating: 0, count: newWidth * newHeight)
        let width = self.width
        pixels.withUnsafeBufferPointer { source in
            target.withUnsafeMutableBufferPointer { output in
                for y in 0..<newHeight {
                    let (y0, y1, fy) = rows[y]
                    let upper = y0 * width, lower = y1 * width, out = y * newWidth
                    for x in 0..<newWidth {
                        let (x0, x1, fx) = columns[x]
                        let top = Int(source[upper + x0]) * (256 - fx) + Int(source[upper + x1]) * fx
                        let bottom = Int(source[lower + x0]) * (256 - fx) + Int(source[lower + x1]) * fx
                        output[out + x] = UInt8((top * (256 - fy) + bottom * fy + 32768) >> 16)
                    }
                }
            }
        }
        return GreyImage(width: newWidth, height: newHeight, pixels: target)
    }

    /// For each of `count` output positions scaled by `factor` from `limit` input ones: the
    /// two input positions it lies between and its weight towards the second, in 1/256ths
    /// (sample centres: (i + 0.5) / factor - 0.5, clamped to the picture).
    static func samples(count: Int, factor: Int, limit: Int) -> [(Int, Int, Int)] {
        (0..<count).map { index in
            let position = max(0, ((2 * index + 1) * 128) / factor - 128)
            let first = min(limit - 1, position >> 8)
            return (first, min(limit - 1, first + 1), position & 255)
        }
    }

    /// With the dark details thinner than `2 × radius + 1` pixels filled in by the light
    /// around them (a morphological closing: a maximum, then a minimum, over squares of that
    /// side). Light text drawn over a light or busy ground is legible only by a dark outline
    /// or shadow around its letters (a camera's clock, captions, signs): read as it is, the
    /// outline is the ink and the letters come out hollow; closed, they are solid light
    /// letters on the ground.
    func closed(radius: Int) -> GreyImage {
        filtered(radius: radius, by: max).filtered(radius: radius, by: min)
    }

    /// Each pixel replaced by `pick` (min or max) of the square of side `2 × radius + 1`
    /// around it (clipped to the picture), as a row pass and then a column pass.
    private func filtered(radius: Int, by pick: (UInt8, UInt8) -> UInt8) -> GreyImage {
        guard radius > 0 else { return self }
        var rows = pixels
        let (width, height) = (self.width, self.height)
        pixels.withUnsafeBufferPointer { source in
            rows.withUnsafeMutableBufferPointer { target in
                for y in 0..<height {
                    let start = y * width
                    for x in 0..<width {
                        var value = source[start + x]
                        for other in max(0, x - radius)...min(width - 1, x + radius) { value = pick(value, source[start + other]) }
                        target[start + x] = value
                    }
                }
            }
        }
        var columns = rows
        rows.withUnsafeBufferPointer { source in
            columns.withUnsafeMutableBufferPointer { target in
                for y in 0..<height {
                    let range = max(0, y - radius)...min(height - 1, y + radius)
                    for x in 0..<width {
                        var value = source[y * width + x]
                        for other in range { value = pick(value, source[other * width + x]) }
                        target[y * width + x] = value
                    }
                }
            }
        }
        return GreyImage(width: width, height: height, pixels: columns)
    }

    /// Light for dark and dark for light.
    func inverted() -> GreyImage {
        GreyImage(width: width, height: height, pixels: pixels.map { 255 - $0 })
    }

    /// Whether the picture looks like light text on a dark ground: its median is dark.
    /// Text covers a small part of a picture, so the median is the ground's brightness.
    var looksLightOnDark: Bool { median < 100 }

    /// Whether the ground looks busy (a scene, a pattern, bars of colour) rather than plain:
    /// more than 1/20 of the pixels lie more than 32 levels from the median. Text on a plain
    /// ground, even large, noisy or in several lines, covers less (a plain frame with two
    /// lines of 48 px text: under 1/50). Such a picture is read in its two polarities at once
    /// (``TextRecognizer``): its first reading is seldom sure enough to be the only one.
    var looksBusy: Bool {
        let middle = Int(median)
        let far = pixels.reduce(0) { $0 + (abs(Int($1) - middle) > 32 ? 1 : 0) }
        return far * 20 > pixels.count
    }

    /// The median brightness (the lower one of an even count's middle two).
    var median: UInt8 {
        var histogram = [Int](repeating: 0, count: 256)
        for value in pixels { histogram[Int(value)] += 1 }
        var seen = 0
        for (value, count) in histogram.enumerated() {
            seen += count
            if seen * 2 >= pixels.count { return UInt8(value) }
        }
        return 255
    }
}

/// A part of a picture in its pixels (`--region X,Y,W,H`): a pixel rectangle, as a
/// canvas's cells are.
public typealias TextRegion = PixelRect

extension PixelRect {
    /// Parses `X,Y,W,H` (W and H above 0); nil otherwise.
    public init?(parsing text: String) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { Int(String($0)) }
        guard parts.count == 4, let x = parts[0], let y = parts[1], let width = parts[2], let height = parts[3],
              x >= 0, y >= 0, width > 0, height > 0 else { return nil }
        self.init(x: x, y: y, width: width, height: height)
    }
}

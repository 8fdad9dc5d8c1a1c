import CamrecCore
import MediaValues

/// One rectangle of a privacy mask (`--mask X,Y,W,H`), each of its four numbers in pixels of
/// the picture (after `--rotate` and `--flip`) or a percentage of the picture's width (X, W)
/// or height (Y, H): `10,20,300,200`, `0,0,25%,100%`, `50%,10%,12.5%,20%`.
public struct MaskRectangle: Sendable, Equatable {
    /// A length along one side of the picture.
    public enum Length: Sendable, Equatable {
        /// Whole pixels.
        case pixels(Int)
        /// A part of the side, 0…1 (a percentage given as `12.5%` is 0.125).
        case fraction(Double)

        /// The pixel this length reaches along a side of `side` pixels: a fraction rounded
        /// down (`outwards: false`, a start) or up (`outwards: true`, an end), so that a mask
        /// given in percentages never leaves a pixel of what it covers uncovered.
        func pixels(of side: Int, roundingUp: Bool) -> Int {
            switch self {
            case .pixels(let count): return count
            case .fraction(let part):
                let exact = part * Double(side)
                // A hair of tolerance, so that 50% of 720 is 360, not 361, whatever the rounding of the double.
                let rounded = roundingUp ? (exact - 1e-9).rounded(.up) : (exact + 1e-9).rounded(.down)
                return min(side, max(0, Int(rounded)))
            }
        }

        var isZero: Bool {
            switch self {
            case .pixels(let count): count == 0
            case .fraction(let part): part == 0
            }
        }
    }

    /// The left edge, the top edge, the width and the height.
    public var x, y, width, height: Length

    public init(x: Length, y: Length, width: Length, height: Length) {
        (self.x, self.y, self.width, self.height) = (x, y, width, height)
    }

    /// Parses `X,Y,W,H`: four whole numbers of pixels (0 or more) or percentages (0-100,
    /// decimals allowed), W and H above 0, and percentages that stay inside the picture
    /// (X+W and Y+H at most 100%). Pixels are checked against the picture once its size is
    /// known (``PrivacyMask/check(frame:)``).
    public static func parse(_ text: String) throws(ValueError) -> MaskRectangle {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 4 else {
            throw ValueError("invalid rectangle '\(text)': give X,Y,W,H in pixels or percentages, e.g. 0,0,320,180 or 75%,0,25%,30%")
        }
        var lengths: [Length] = []
        for part in parts {
            if part.hasSuffix("%") {
                let digits = part.dropLast()
                guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
                      let percent = Double(digits), percent >= 0, percent <= 100 else {
                    throw ValueError("invalid rectangle '\(text)': '\(part)' is not a percentage from 0% to 100%")
                }
                lengths.append(.fraction(percent / 100))
            } else {
                guard !part.isEmpty, part.allSatisfy(\.isASCII), part.allSatisfy(\.isNumber), let pixels = Int(part),
                      pixels <= FrameSize.maximumDimension else {
                    throw ValueError("invalid rectangle '\(text)': '\(part)' is neither whole pixels nor a percentage (e.g. 25%)")
                }
                lengths.append(.pixels(pixels))
            }
        }
        let rectangle = MaskRectangle(x: lengths[0], y: lengths[1], width: lengths[2], height: lengths[3])
        if rectangle.width.isZero || rectangle.height.isZero {
            throw ValueError("the rectangle '\(text)' is empty: give a width and a height above 0")
        }
        for (start, length, side) in [(rectangle.x, rectangle.width, "width"), (rectangle.y, rectangle.height, "height")] {
            if case .fraction(let a) = start, case .fraction(let b) = length, a + b > 1 + 1e-9 {
                throw ValueError("the rectangle '\(text)' reaches past the picture's \(side) (\(Self.percent(a + b)) of it): keep X+W and Y+H within 100%")
            }
        }
        return rectangle
    }

    /// The rectangle in a picture of `frame`, in whole pixels (percentages rounded outwards);
    /// nil when it does not lie wholly inside the picture.
    public func pixels(in frame: FrameSize) -> PixelRect? {
        let left = x.pixels(of: frame.width, roundingUp: false), top = y.pixels(of: frame.height, roundingUp: false)
        let right = end(x, width, side: frame.width), bottom = end(y, height, side: frame.height)
        guard right <= frame.width, bottom <= frame.height, right > left, bottom > top else { return nil }
        return PixelRect(x: left, y: top, width: right - left, height: bottom - top)
    }

    /// Where a rectangle starting at `start` and `length` long ends, in pixels.
    private func end(_ start: Length, _ length: Length, side: Int) -> Int {
        switch (start, length) {
        case (.pixels(let a), .pixels(let b)): return a + b
        case (.fraction(let a), .fraction(let b)): return Length.fraction(min(1, a + b)).pixels(of: side, roundingUp: true)
        default: return start.pixels(of: side, roundingUp: false) + length.pixels(of: side, roundingUp: true)
        }
    }

    static func percent(_ part: Double) -> String {
        let value = part * 100
        return (value == value.rounded() ? String(Int(value)) : String(value)) + "%"
    }
}

import CamrecCore
import MediaValues

extension StillFormat {
    /// `--still-quality`'s value: a whole number from 1 to 100.
    public static func parseQuality(_ text: String) throws(ValueError) -> Int {
        guard let value = Int(text), (1...100).contains(value) else {
            throw ValueError("invalid quality '\(text)': use a whole number from 1 to 100")
        }
        return value
    }

    /// `--still-format` and `--still-quality` as given (nil: not given): the format asked
    /// for (nil: the names decide) and the JPEG quality. Every refusal is a usage error.
    public static func parse(format: String?, quality: String?) throws(CamrecError) -> (format: StillFormat?, quality: Int) {
        let jpegQuality = try OptionValue.parse("--still-quality", quality, parseQuality) ?? defaultQuality
        switch format?.lowercased() {
        case nil: return (nil, jpegQuality)
        case "jpeg", "jpg": return (.jpeg(quality: jpegQuality), jpegQuality)
        case "png": return (.png, jpegQuality)
        case let other?: throw OptionValue.refusal("--still-format: unknown format '\(other)': use jpeg or png")
        }
    }
}

extension StillSettings {
    /// The stills of a recording to `moviePath` from `--stills`, `--still-format`,
    /// `--still-quality` and `--still-every` as given (nil: not given); see
    /// ``resolve(pattern:format:quality:every:moviePath:)``. Every refusal is a usage error.
    public static func parse(pattern: String?, format: String?, quality: String?, every: String?,
                             moviePath: String) throws(CamrecError) -> StillSettings {
        let (asked, jpegQuality) = try StillFormat.parse(format: format, quality: quality)
        let period = try OptionValue.parse("--still-every", every) { (text: String) throws(ValueError) -> TimeSpec in
            let period = try TimeSpec.parse(text)
            guard period.nanoseconds > 0 else { throw ValueError("the period must be above 0") }
            return period
        }
        do {
            return try resolve(pattern: pattern, format: asked, quality: jpegQuality, every: period, moviePath: moviePath)
        } catch {
            throw OptionValue.refusal(error.message)
        }
    }
}

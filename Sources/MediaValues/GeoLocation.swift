/// Where pictures were taken (`--location LAT,LON[,ALT]`): WGS-84 decimal degrees and,
/// when given, metres above sea level. Stills carry it as EXIF GPS tags.
public struct GeoLocation: Sendable, Equatable {
    /// Degrees north (negative: south), -90 … 90.
    public var latitude: Double
    /// Degrees east (negative: west), -180 … 180.
    public var longitude: Double
    /// Metres above sea level (negative: below); nil when not given.
    public var altitude: Double?

    /// The largest altitude (above or below sea level) a location may have, in metres.
    public static let altitudeLimit = 100_000.0

    /// A location; the values must be in range (``parse(_:)`` checks them for users).
    public init(latitude: Double, longitude: Double, altitude: Double? = nil) {
        precondition((-90...90).contains(latitude) && (-180...180).contains(longitude), "location out of range")
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
    }

    /// Reads `LAT,LON` or `LAT,LON,ALT`: plain decimal numbers (`48.8584,2.2945,35`,
    /// `-33.8568,151.2153`), spaces around them allowed.
    ///
    /// - Throws: ``ValueError`` with one line that says what is wrong: not two or three
    ///   numbers, a latitude outside -90…90, a longitude outside -180…180, or an altitude
    ///   beyond ±100 km.
    public static func parse(_ text: String) throws(ValueError) -> GeoLocation {
        let usage = "give LAT,LON[,ALT] in decimal degrees and metres, e.g. 48.8584,2.2945,35"
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            .map { String(decoding: DecimalScanner.trimmedBytes(String($0)), as: UTF8.self) }
        guard parts.count == 2 || parts.count == 3 else {
            throw ValueError("invalid location '\(text)': \(usage)")
        }
        var numbers: [Double] = []
        for part in parts {
            guard let number = decimal(part) else {
                throw ValueError("invalid location '\(text)': '\(part)' is not a decimal number; \(usage)")
            }
            numbers.append(number)
        }
        guard (-90...90).contains(numbers[0]) else {
            throw ValueError("invalid location '\(text)': latitude \(parts[0]) is out of range: use -90 to 90 (south is negative)")
        }
        guard (-180...180).contains(numbers[1]) else {
            throw ValueError("invalid location '\(text)': longitude \(parts[1]) is out of range: use -180 to 180 (west is negative)")
        }
        let altitude = numbers.count == 3 ? numbers[2] : nil
        if let altitude, abs(altitude) > altitudeLimit {
            throw ValueError("invalid location '\(text)': altitude \(parts[2]) m is out of range: use -100000 to 100000 metres")
        }
        return GeoLocation(latitude: numbers[0], longitude: numbers[1], altitude: altitude)
    }

    /// A plain decimal number: an optional sign, digits, an optional point and digits (no
    /// exponent, no `nan` or `inf`, which Double's own parser would take).
    private static func decimal(_ text: String) -> Double? {
        var bytes = Array(text.utf8)[...]
        if let first = bytes.first, first == UInt8(ascii: "+") || first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        let digits = bytes.count(where: DecimalScanner.isDigit)
        let points = bytes.count { $0 == UInt8(ascii: ".") }
        guard digits > 0, points <= 1, digits + points == bytes.count else { return nil }
        return Double(text)
    }
}

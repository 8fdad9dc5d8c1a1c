/// A video frame size in pixels: what a user asks for (parsed from `1280x720` or a name
/// such as `720p`) and what a camera offers (V4L2 converts the kernel's `UInt32`s).
public struct FrameSize: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int

    /// The largest width or height ``parse(_:)`` accepts (what encoders handle).
    public static let maximumDimension = 16384

    /// Named sizes: `480p` is the common 4:3 webcam size 640x480; the others are 16:9.
    public static let presets: [(name: String, size: FrameSize)] = [
        ("360p", FrameSize(width: 640, height: 360)),
        ("480p", FrameSize(width: 640, height: 480)),
        ("720p", FrameSize(width: 1280, height: 720)),
        ("1080p", FrameSize(width: 1920, height: 1080)),
        ("1440p", FrameSize(width: 2560, height: 1440)),
        ("2160p", FrameSize(width: 3840, height: 2160)),
        ("4k", FrameSize(width: 3840, height: 2160)),
    ]

    /// Creates a size as given, without checks (sizes reported by a camera are taken as they are).
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// Parses `WIDTHxHEIGHT` (`1280x720`, `1280X720`) or a preset name (`720p`, `4K`).
    /// Width and height must be positive, even (what 4:2:0 encoders need) and at most
    /// ``maximumDimension``.
    ///
    /// - Throws: ``ValueError`` naming the text and showing valid forms.
    public static func parse(_ text: String) throws(ValueError) -> FrameSize {
        let bytes = DecimalScanner.trimmedBytes(text)
        let lowered = String(decoding: bytes, as: UTF8.self).lowercased()
        if let preset = presets.first(where: { $0.name == lowered }) {
            return preset.size
        }
        let parts = bytes.split(omittingEmptySubsequences: false) { $0 == UInt8(ascii: "x") || $0 == UInt8(ascii: "X") }
        guard parts.count == 2 else { throw invalid(text) }
        let width: Int64
        let height: Int64
        do {
            width = try DecimalScanner.integer(parts[0])
            height = try DecimalScanner.integer(parts[1])
        } catch .overflow {
            throw invalid(text, "width and height must be at most \(maximumDimension)")
        } catch {
            throw invalid(text)
        }
        guard width > 0, height > 0 else { throw invalid(text, "width and height must be positive") }
        guard width <= maximumDimension, height <= maximumDimension else {
            throw invalid(text, "width and height must be at most \(maximumDimension)")
        }
        guard width % 2 == 0, height % 2 == 0 else { throw invalid(text, "width and height must be even") }
        return FrameSize(width: Int(width), height: Int(height))
    }

    /// `1280x720`.
    public var description: String { "\(width)x\(height)" }

    /// Number of pixels; `Int.max` when the product does not fit (a driver's nonsense size).
    public var area: Int {
        let (product, overflow) = width.multipliedReportingOverflow(by: height)
        return overflow ? .max : product
    }

    /// Whether both dimensions fit inside `limit`.
    public func fits(in limit: FrameSize) -> Bool { width <= limit.width && height <= limit.height }

    private static func invalid(_ text: String, _ reason: String? = nil) -> ValueError {
        let reason = reason.map { "\($0); " } ?? ""
        return ValueError("invalid frame size '\(text)': \(reason)use WIDTHxHEIGHT (1280x720) or 480p, 720p, 1080p, 4k")
    }
}

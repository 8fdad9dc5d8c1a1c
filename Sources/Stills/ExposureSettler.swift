/// Decides when a camera's picture has settled: a webcam's first frames are dark while
/// auto-exposure adapts, so a photo waits until the mean brightness stops changing.
package struct ExposureSettler {
    /// Frames whose brightness must agree.
    static let window = 6
    /// How far (0–255) the brightness of those frames may spread. A mean over a whole frame
    /// hardly moves with sensor noise, so even a slow auto-exposure ramp shows.
    static let tolerance = 1.0

    private var recent: [Double] = []

    /// A settler that has seen no frame yet.
    package init() {}

    /// Adds a frame's mean brightness; true once the last `window` frames agree.
    package mutating func add(_ brightness: Double) -> Bool {
        recent.append(brightness)
        if recent.count > Self.window { recent.removeFirst() }
        guard recent.count == Self.window, let low = recent.min(), let high = recent.max() else { return false }
        return high - low <= Self.tolerance
    }

    /// The mean of an 8-bit luma plane, sampling every 7th byte (plenty for a mean).
    package static func meanLuma(_ bytes: UnsafeRawBufferPointer, pixels: Int) -> Double {
        let count = min(pixels, bytes.count)
        guard count > 0 else { return 0 }
        var sum = 0
        var samples = 0
        var index = 0
        while index < count {
            sum += Int(bytes[index])
            samples += 1
            index += 7
        }
        return Double(sum) / Double(samples)
    }
}

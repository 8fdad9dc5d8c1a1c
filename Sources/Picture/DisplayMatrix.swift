import MediaValues

extension Orientation {
    /// The MP4/MOV track display matrix (`tkhd`, 36 bytes) that shows a `size` picture
    /// oriented this way without touching its pixels: for recordings that copy a camera's
    /// encoded frames (no such recording exists yet), written with
    /// `TrackMatrix.setVideoMatrix` once the file is finalised, as trim keeps an input's.
    ///
    /// Layout: a, b, u, c, d, v, x, y, w, where a point (p, q) is shown at
    /// (a·p + c·q + x, b·p + d·q + y); a–d, x, y in 16.16 and u, v, w in 2.30 fixed point,
    /// big-endian (ISO/IEC 14496-12 §8.3.2). The translation moves the turned picture back
    /// into the positive quadrant, as ffmpeg writes it (90°: 0, 1, −1, 0, height, 0).
    public func displayMatrix(for size: FrameSize) -> [UInt8] {
        let m = Self.matrix(flip).times(Self.matrix(rotation))
        let corners = [(0, 0), (size.width, 0), (0, size.height), (size.width, size.height)]
        let xs = corners.map { m.a * $0.0 + m.b * $0.1 }
        let ys = corners.map { m.c * $0.0 + m.d * $0.1 }
        let (x, y) = (-(xs.min() ?? 0), -(ys.min() ?? 0))
        func fixed(_ value: Int, shift: Int) -> [UInt8] {
            let bits = UInt32(bitPattern: Int32(truncatingIfNeeded: value << shift))
            return [UInt8(bits >> 24), UInt8(bits >> 16 & 0xFF), UInt8(bits >> 8 & 0xFF), UInt8(bits & 0xFF)]
        }
        return fixed(m.a, shift: 16) + fixed(m.c, shift: 16) + fixed(0, shift: 30)
            + fixed(m.b, shift: 16) + fixed(m.d, shift: 16) + fixed(0, shift: 30)
            + fixed(x, shift: 16) + fixed(y, shift: 16) + fixed(1, shift: 30)
    }
}

import GStreamer

/// `--settle` with `--layout`: the mean brightness of each camera's picture on a composed
/// canvas frame, each measured on its own. A mean over the whole canvas would let a camera
/// that fills a small part of it settle at a fraction of its change; each camera's mean
/// changes as its own picture does.
///
/// Where cameras overlap (`--layout pip`: the insets lie on the first camera's picture),
/// a camera is measured only where it shows: the compositor draws the later cameras on
/// top, so their rectangles are left out of the earlier ones'.
struct CanvasBrightness: Sendable {
    /// Each camera's rectangle on the canvas, in camera order.
    let rects: [PixelRect]

    /// Which pixels of a row of a rectangle of `area` pixels are read: every one of a small
    /// rectangle (a few samples of a small picture alias with its detail, and the mean
    /// jitters more than the settle tolerance), every `step`th of a large one (about 64k
    /// samples or more: a mean needs no more), each row starting at another column.
    static func step(area: Int) -> Int { min(7, max(1, area / 65_536)) }

    /// The mean luma (0–255) of each rectangle on the frame in `bytes` laid out as
    /// `layout`, in camera order; empty when the frame has no 8-bit luma plane to read
    /// (the caller then cannot call the picture stable).
    func means(_ bytes: UnsafeRawBufferPointer, layout: VideoFrameLayout) -> [Double] {
        guard layout.hasLumaPlane else { return [] }
        let offset = layout.offsets[0], stride = layout.strides[0]
        guard offset >= 0, stride >= layout.width else { return [] }
        let canvas = PixelRect(x: 0, y: 0, width: layout.width, height: layout.height)
        let clipped = rects.map { $0.clipped(to: canvas) }
        // One buffer for every row's covered columns: this runs on the streaming thread,
        // once per frame of the settle window, and a row is no reason to allocate.
        var covered: [Range<Int>] = []
        covered.reserveCapacity(clipped.count)
        return clipped.indices.map { index in
            mean(of: clipped[index], under: clipped[(index + 1)...], bytes, offset: offset, stride: stride, covered: &covered)
        }
    }

    /// The mean of `rect`'s samples that no rectangle of `above` covers; 0 when none is left.
    private func mean(of rect: PixelRect, under above: ArraySlice<PixelRect>, _ bytes: UnsafeRawBufferPointer,
                      offset: Int, stride: Int, covered: inout [Range<Int>]) -> Double {
        let step = Self.step(area: rect.width * rect.height)
        var sum = 0
        var samples = 0
        for y in rect.y..<(rect.y + rect.height) {
            let row = offset + y * stride
            guard row + rect.x + rect.width <= bytes.count else { break }
            // The columns of this row that a camera drawn on top covers.
            covered.removeAll(keepingCapacity: true)
            for top in above where y >= top.y && y < top.y + top.height { covered.append(top.x..<(top.x + top.width)) }
            var x = rect.x + (y * 3) % step
            while x < rect.x + rect.width {
                if !covered.contains(where: { $0.contains(x) }) {
                    sum += Int(bytes[row + x])
                    samples += 1
                }
                x += step
            }
        }
        return samples == 0 ? 0 : Double(sum) / Double(samples)
    }
}

extension PixelRect {
    /// The part of this rectangle inside `bounds` (empty, at `bounds`' corner, when none is).
    func clipped(to bounds: PixelRect) -> PixelRect {
        let left = max(x, bounds.x), top = max(y, bounds.y)
        let right = min(x + width, bounds.x + bounds.width), bottom = min(y + height, bounds.y + bounds.height)
        guard right > left, bottom > top else { return PixelRect(x: bounds.x, y: bounds.y, width: 0, height: 0) }
        return PixelRect(x: left, y: top, width: right - left, height: bottom - top)
    }
}

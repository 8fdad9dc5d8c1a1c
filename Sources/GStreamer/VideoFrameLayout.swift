import CGStreamer

/// Where a raw video frame's planes lie in its buffer: its format, its size, and each
/// plane's offset and stride (bytes per row, which may be more than the width: GStreamer's
/// default layout rounds an I420 row up to a multiple of 4). Read from a buffer's
/// `GstVideoMeta` when it has one, or else from the negotiated caps (`GstVideoInfo`).
public struct VideoFrameLayout: Sendable, Equatable {
    /// The format's name as caps write it ("I420", "NV12", …).
    public var format: String
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// Each plane's first byte, from the start of the buffer's bytes.
    public var offsets: [Int]
    /// Each plane's bytes per row.
    public var strides: [Int]

    /// A layout of `format` at `width` × `height`, with each plane's `offsets` and `strides`.
    public init(format: String, width: Int, height: Int, offsets: [Int], strides: [Int]) {
        self.format = format
        self.width = width
        self.height = height
        self.offsets = offsets
        self.strides = strides
    }

    /// The formats whose first plane is 8-bit luma, one byte per pixel (planar and
    /// semi-planar YUV, and grey).
    public static let lumaFirstFormats: Set<String> = ["I420", "YV12", "NV12", "NV21", "Y42B", "Y444", "Y41B", "GRAY8"]

    /// Whether plane 0 holds 8-bit luma, one byte per pixel.
    public var hasLumaPlane: Bool { Self.lumaFirstFormats.contains(format) && !offsets.isEmpty && !strides.isEmpty }

    static func formatName(_ format: GstVideoFormat) -> String {
        gst_video_format_to_string(format).map { String(cString: $0) } ?? "UNKNOWN"
    }

    static func planes<Tuple, Element: BinaryInteger>(_ tuple: Tuple, count: Int, as: Element.Type) -> [Int] {
        withUnsafeBytes(of: tuple) { raw in Array(raw.bindMemory(to: Element.self).prefix(count)).map { Int($0) } }
    }
}

extension Caps {
    /// The default layout of raw video caps (as GStreamer lays out a frame without a
    /// `GstVideoMeta`); nil for caps that are not fixed raw video.
    public var videoLayout: VideoFrameLayout? {
        var info = GstVideoInfo()
        guard gst_video_info_from_caps(&info, capsPointer) != 0, let formatInfo = info.finfo else { return nil }
        let count = Int(formatInfo.pointee.n_planes)
        return VideoFrameLayout(format: VideoFrameLayout.formatName(formatInfo.pointee.format),
                                width: Int(info.width), height: Int(info.height),
                                offsets: VideoFrameLayout.planes(info.offset, count: count, as: gsize.self),
                                strides: VideoFrameLayout.planes(info.stride, count: count, as: gint.self))
    }
}

extension BufferView {
    /// The layout the buffer's `GstVideoMeta` gives (the producer's own strides and
    /// offsets); nil when it has none.
    public var videoMeta: VideoFrameLayout? {
        guard let meta = gst_buffer_get_video_meta(bufferPointer) else { return nil }
        let count = Int(meta.pointee.n_planes)
        return VideoFrameLayout(format: VideoFrameLayout.formatName(meta.pointee.format),
                                width: Int(meta.pointee.width), height: Int(meta.pointee.height),
                                offsets: VideoFrameLayout.planes(meta.pointee.offset, count: count, as: gsize.self),
                                strides: VideoFrameLayout.planes(meta.pointee.stride, count: count, as: gint.self))
    }
}

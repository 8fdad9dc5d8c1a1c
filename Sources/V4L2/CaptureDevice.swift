/// A camera found by probing: what it is and everything it offers.
///
/// Its Codable form is exact (fractions, flags as bits) and meant for round trips; the stable
/// output of `camrec devices --json` is `DeviceListing`'s.
public struct CaptureDevice: Sendable, Codable, Hashable {
    /// The device node, e.g. "/dev/video0".
    public let path: String
    /// The card name, e.g. "Integrated Camera: Integrated C".
    public let card: String
    /// The kernel driver, e.g. "uvcvideo".
    public let driver: String
    /// Where the device is attached (bus_info), e.g. "usb-0000:00:14.0-8".
    public let bus: String
    /// The device's capabilities by name ("video_capture", "streaming", …).
    public let capabilities: [String]
    /// Whether capture uses the multi-planar API (V4L2_CAP_VIDEO_CAPTURE_MPLANE only).
    public let multiplanar: Bool
    /// Pixel formats in the driver's order.
    public let formats: [PixelFormat]
    /// Controls in the driver's order (class headings and disabled controls left out).
    public let controls: [Control]
    /// Position in the discovered list (what `--device 0` selects); 0 for a device probed alone.
    public var index: Int

    /// A device with the given properties.
    public init(path: String, card: String, driver: String, bus: String, capabilities: [String],
                multiplanar: Bool = false, formats: [PixelFormat], controls: [Control], index: Int = 0) {
        self.path = path
        self.card = card
        self.driver = driver
        self.bus = bus
        self.capabilities = capabilities
        self.multiplanar = multiplanar
        self.formats = formats
        self.controls = controls
        self.index = index
    }

    /// "/dev/video0 (Integrated Camera)", for messages.
    public var label: String { card.isEmpty ? path : "\(path) (\(card))" }

    /// The control that `reference` names (key, name or id), if any.
    public func control(named reference: String) -> Control? {
        controls.first(where: { $0.matches(reference) })
    }
}

/// Names of V4L2 device capability bits (V4L2_CAP_*), in output order.
enum CapabilityNames {
    static let all: [(UInt32, String)] = [
        (0x0000_0001, "video_capture"), (0x0000_1000, "video_capture_mplane"),
        (0x0000_0002, "video_output"), (0x0000_2000, "video_output_mplane"),
        (0x0000_8000, "video_m2m"), (0x0000_4000, "video_m2m_mplane"),
        (0x0000_0004, "video_overlay"), (0x0000_0010, "vbi_capture"), (0x0000_0020, "vbi_output"),
        (0x0000_0040, "sliced_vbi_capture"), (0x0000_0080, "sliced_vbi_output"), (0x0000_0100, "rds_capture"),
        (0x0000_0200, "video_output_overlay"), (0x0000_0400, "hw_freq_seek"), (0x0000_0800, "rds_output"),
        (0x0001_0000, "tuner"), (0x0002_0000, "audio"), (0x0004_0000, "radio"), (0x0008_0000, "modulator"),
        (0x0010_0000, "sdr_capture"), (0x0020_0000, "ext_pix_format"), (0x0040_0000, "sdr_output"),
        (0x0080_0000, "meta_capture"), (0x0100_0000, "readwrite"), (0x0400_0000, "streaming"),
        (0x0800_0000, "meta_output"), (0x1000_0000, "touch"), (0x2000_0000, "io_mc"),
    ]

    static func names(_ bits: UInt32) -> [String] {
        all.filter { bits & $0.0 != 0 }.map(\.1)
    }
}

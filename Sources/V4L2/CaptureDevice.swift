import CV4L2

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
    /// The device's link in /dev/v4l/by-id, if udev made one, e.g.
    /// "/dev/v4l/by-id/usb-046d_HD_Pro_Webcam_C920_ABCD1234-video-index0" (see `StableNames`).
    public internal(set) var byID: String?
    /// The device's link in /dev/v4l/by-path, if any.
    public internal(set) var byPath: String?

    /// A device with the given properties.
    public init(path: String, card: String, driver: String, bus: String, capabilities: [String],
                multiplanar: Bool = false, formats: [PixelFormat], controls: [Control],
                byID: String? = nil, byPath: String? = nil, index: Int = 0) {
        self.path = path
        self.card = card
        self.driver = driver
        self.bus = bus
        self.capabilities = capabilities
        self.multiplanar = multiplanar
        self.formats = formats
        self.controls = controls
        self.byID = byID
        self.byPath = byPath
        self.index = index
    }

    /// "/dev/video0 (Integrated Camera)", for messages.
    public var label: String { card.isEmpty ? path : "\(path) (\(card))" }

    /// What identifies this camera across unplugs (card, bus info, stable links), to find it
    /// again when its node has changed (`DeviceDiscovery.locate`).
    public var identity: DeviceIdentity { DeviceIdentity(card: card, bus: bus, byID: byID, byPath: byPath) }

    /// The name that stays the same across unplugs, for listings: the by-id link, else the
    /// by-path link; nil when udev made neither.
    public var stableName: String? { byID ?? byPath }

    /// The same device, found at `node` with the given stable links.
    func at(node: String, byID: String?, byPath: String?) -> CaptureDevice {
        CaptureDevice(path: node, card: card, driver: driver, bus: bus, capabilities: capabilities,
                      multiplanar: multiplanar, formats: formats, controls: controls, byID: byID, byPath: byPath,
                      index: index)
    }

    /// The control that `reference` names (key, name or id), if any.
    public func control(named reference: String) -> Control? {
        controls.first(where: { $0.matches(reference) })
    }
}

/// Names of V4L2 device capability bits (V4L2_CAP_*), in output order.
enum CapabilityNames {
    static let all: [(UInt32, String)] = [
        (UInt32(V4L2_CAP_VIDEO_CAPTURE), "video_capture"),
        (UInt32(V4L2_CAP_VIDEO_CAPTURE_MPLANE), "video_capture_mplane"),
        (UInt32(V4L2_CAP_VIDEO_OUTPUT), "video_output"),
        (UInt32(V4L2_CAP_VIDEO_OUTPUT_MPLANE), "video_output_mplane"),
        (UInt32(V4L2_CAP_VIDEO_M2M), "video_m2m"),
        (UInt32(V4L2_CAP_VIDEO_M2M_MPLANE), "video_m2m_mplane"),
        (UInt32(V4L2_CAP_VIDEO_OVERLAY), "video_overlay"),
        (UInt32(V4L2_CAP_VBI_CAPTURE), "vbi_capture"),
        (UInt32(V4L2_CAP_VBI_OUTPUT), "vbi_output"),
        (UInt32(V4L2_CAP_SLICED_VBI_CAPTURE), "sliced_vbi_capture"),
        (UInt32(V4L2_CAP_SLICED_VBI_OUTPUT), "sliced_vbi_output"),
        (UInt32(V4L2_CAP_RDS_CAPTURE), "rds_capture"),
        (UInt32(V4L2_CAP_VIDEO_OUTPUT_OVERLAY), "video_output_overlay"),
        (UInt32(V4L2_CAP_HW_FREQ_SEEK), "hw_freq_seek"),
        (UInt32(V4L2_CAP_RDS_OUTPUT), "rds_output"),
        (UInt32(V4L2_CAP_TUNER), "tuner"),
        (UInt32(V4L2_CAP_AUDIO), "audio"),
        (UInt32(V4L2_CAP_RADIO), "radio"),
        (UInt32(V4L2_CAP_MODULATOR), "modulator"),
        (UInt32(V4L2_CAP_SDR_CAPTURE), "sdr_capture"),
        (UInt32(V4L2_CAP_EXT_PIX_FORMAT), "ext_pix_format"),
        (UInt32(V4L2_CAP_SDR_OUTPUT), "sdr_output"),
        (UInt32(V4L2_CAP_META_CAPTURE), "meta_capture"),
        (UInt32(V4L2_CAP_READWRITE), "readwrite"),
        (UInt32(V4L2_CAP_STREAMING), "streaming"),
        (UInt32(V4L2_CAP_META_OUTPUT), "meta_output"),
        (UInt32(V4L2_CAP_TOUCH), "touch"),
        (UInt32(V4L2_CAP_IO_MC), "io_mc"),
    ]

    static func names(_ bits: UInt32) -> [String] {
        all.filter { bits & $0.0 != 0 }.map(\.1)
    }
}

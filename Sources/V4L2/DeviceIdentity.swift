/// What identifies a camera whatever node it has at the moment, so that it can be found again
/// after it was unplugged and plugged back in (when /dev/video0 may come back as /dev/video2).
///
/// The by-id link names the camera itself (vendor, model, serial number) and is decisive when
/// both sides have one. Without it, the bus info (the port, e.g. "usb-0000:00:14.0-1") and the
/// card name that `VIDIOC_QUERYCAP` reports identify it, as long as it goes back into the same port.
public struct DeviceIdentity: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The card name, e.g. "HD Pro Webcam C920".
    public var card: String
    /// Where the device is attached (bus_info), e.g. "usb-0000:00:14.0-1".
    public var bus: String
    /// The device's link in /dev/v4l/by-id, e.g.
    /// "/dev/v4l/by-id/usb-046d_HD_Pro_Webcam_C920_ABCD1234-video-index0"; nil without one.
    public var byID: String?
    /// The device's link in /dev/v4l/by-path, e.g.
    /// "/dev/v4l/by-path/pci-0000:00:14.0-usb-0:1:1.0-video-index0"; nil without one.
    public var byPath: String?

    /// An identity with the given parts.
    public init(card: String, bus: String, byID: String? = nil, byPath: String? = nil) {
        self.card = card
        self.bus = bus
        self.byID = byID
        self.byPath = byPath
    }

    /// The name that stays the same across unplugs, to show and to select the camera by: the
    /// by-id link, else the by-path link (stable while the camera stays in its port).
    public var stableName: String? { byID ?? byPath }

    /// "HD Pro Webcam C920 (usb-0000:00:14.0-1, /dev/v4l/by-id/…)", for messages.
    public var description: String {
        "\(card) (\(([bus] + [stableName].compactMap { $0 }).joined(separator: ", ")))"
    }

    /// Whether `other` (a device present now) is this camera, and by what: the same by-id link
    /// when both have one (different links are different cameras, even of the same model in the
    /// same port), else the same bus info and card. Nil when it is not this camera.
    public func match(_ other: DeviceIdentity) -> IdentityMatch? {
        if let byID, let theirs = other.byID { return byID == theirs ? .byID : nil }
        if !bus.isEmpty, bus == other.bus, card == other.card { return .busAndCard }
        return nil
    }

    /// The device among `devices` that is this camera (see `match`): the one with this by-id
    /// link; else the one with this bus info and card, preferring this by-path link and then
    /// the first in `devices` when a camera offers several capture nodes. Nil when none matches.
    public func find(in devices: [CaptureDevice]) -> CaptureDevice? {
        let matches = devices.compactMap { device in match(device.identity).map { (device, $0) } }
        if let exact = matches.first(where: { $0.1 == .byID }) { return exact.0 }
        if let byPath, let samePort = matches.first(where: { $0.0.byPath == byPath }) { return samePort.0 }
        return matches.first?.0
    }

    /// The identity of the device at `path` (a node such as /dev/video0, or a link to one):
    /// its card and bus info from `VIDIOC_QUERYCAP`, and the links in `names` that point to it.
    /// The device is opened only for the duration of the call.
    public static func read(path: String, names: StableNames = .system) throws(DeviceError) -> DeviceIdentity {
        let info = try VideoDevice(path: path).capability()
        let found = names.snapshot().names(forNode: path)
        return DeviceIdentity(card: info.card, bus: info.bus, byID: found.byID, byPath: found.byPath)
    }
}

/// How a device was recognised as a camera (see `DeviceIdentity.match`).
public enum IdentityMatch: Sendable, Hashable {
    /// By its /dev/v4l/by-id link: the camera itself, in whatever port.
    case byID
    /// By bus info and card name: the same model in the same port.
    case busAndCard
}

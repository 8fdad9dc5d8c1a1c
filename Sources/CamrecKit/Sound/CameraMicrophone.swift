import V4L2

#if canImport(Glibc)
import Glibc
#endif

/// Which sound source is a camera's own microphone: the sound card on the camera's USB
/// device, matched by what the kernel reports (pure, but for `camera(path:sysfs:)`).
public enum CameraMicrophone {
    /// A camera as far as matching needs it.
    public struct Camera: Sendable, Equatable {
        /// Its device node as given (/dev/video0, or a /dev/v4l link).
        public var path: String
        /// Its USB device in sysfs, when it has a sysfs entry.
        public var usbDevice: String?
        /// Its V4L2 bus info (VIDIOC_QUERYCAP), e.g. "usb-0000:00:14.0-1".
        public var busInfo: String?

        public init(path: String, usbDevice: String? = nil, busInfo: String? = nil) {
            self.path = path
            self.usbDevice = usbDevice
            self.busInfo = busInfo
        }
    }

    /// The sound card on the camera's USB device: the same sysfs USB device, else the same
    /// bus info (the camera's from QUERYCAP, the card's from /proc/asound/cards or its sysfs
    /// path). Nil when none is, or when the camera is not a USB device.
    public static func card(of camera: Camera, among cards: [SoundCard]) -> SoundCard? {
        if let device = camera.usbDevice, let card = cards.first(where: { $0.usbDevice == device }) {
            return card
        }
        guard let bus = camera.busInfo ?? camera.usbDevice.flatMap(SysfsTree.busInfo(usbDevice:)),
              bus.hasPrefix("usb-")
        else { return nil }
        return cards.first { card in
            (card.busInfo ?? card.usbDevice.flatMap(SysfsTree.busInfo(usbDevice:))) == bus
        }
    }

    /// What to record from that card: the sound server's source for it when a server offers
    /// one (so the server is not bypassed and other programs can share the microphone),
    /// else its first ALSA capture device.
    public static func source(on card: SoundCard, serverSources: [SoundSource], alsaSources: [SoundSource]) -> SoundSource? {
        let onCard: (SoundSource) -> Bool = { source in
            !source.isMonitor && (source.card == card.number || (source.usbDevice != nil && source.usbDevice == card.usbDevice))
        }
        return serverSources.first(where: onCard) ?? alsaSources.first(where: onCard)
    }

    /// `sources` with `camera` filled in where a source sits on a camera's USB device.
    public static func attach(cameras: [Camera], to sources: [SoundSource], cards: [SoundCard]) -> [SoundSource] {
        let owners: [(card: SoundCard, camera: String)] = cameras.compactMap { camera in
            card(of: camera, among: cards).map { ($0, camera.path) }
        }
        return sources.map { source in
            var source = source
            guard !source.isMonitor else { return source }
            if let owner = owners.first(where: { owner in
                source.card == owner.card.number || (source.usbDevice != nil && source.usbDevice == owner.card.usbDevice)
            }) {
                source.camera = owner.camera
            }
            return source
        }
    }

    /// The camera at `path` as the kernel describes it: its USB device from sysfs (through
    /// the node the path leads to) and its bus info from QUERYCAP (the camera is opened for
    /// that one call; nil when it cannot be, e.g. busy).
    public static func camera(path: String, sysfs: SysfsTree = .system) -> Camera {
        let node = SoundFiles.realPath(path).map { String($0.split(separator: "/").last ?? "") } ?? ""
        let usb = node.hasPrefix("video") ? sysfs.usbDevice(ofVideoNode: node) : nil
        let bus = try? DeviceIdentity.read(path: path).bus
        return Camera(path: path, usbDevice: usb, busInfo: bus)
    }
}

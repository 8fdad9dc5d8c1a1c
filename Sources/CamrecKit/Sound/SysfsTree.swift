#if canImport(Glibc)
import Glibc
#endif

/// The part of /sys that ties a camera and a sound card to the USB device they sit on.
/// The root is injectable so that tests lay out a fake tree in a temporary folder.
///
/// `class/video4linux/videoN/device` and `class/sound/cardN/device` are links to a USB
/// *interface* (`…/usb1/1-1/1-1:1.0`); the USB *device* is the path up to its last
/// `bus-port[.port…]` component (`…/usb1/1-1`). A camera and its microphone are two
/// interfaces of one device.
public struct SysfsTree: Sendable, Equatable {
    /// The folder that stands for /sys.
    public var root: String

    public init(root: String) {
        self.root = root
    }

    /// The real /sys.
    public static let system = SysfsTree(root: "/sys")

    /// The USB device (a path below the root, e.g. "/devices/pci0000:00/0000:00:14.0/usb1/1-1")
    /// that video node `videoN` sits on; nil when it is not a USB device or has no sysfs entry
    /// (an emulated camera).
    public func usbDevice(ofVideoNode node: String) -> String? {
        resolve("/class/video4linux/\(node)/device").flatMap(Self.usbDevice(inPath:))
    }

    /// The manufacturer string of the USB device video node `videoN` sits on (e.g.
    /// "Logitech"); nil when it is not on USB or states none.
    public func usbManufacturer(ofVideoNode node: String) -> String? {
        guard let device = usbDevice(ofVideoNode: node),
              let name = SoundFiles.read(root + device + "/manufacturer")?.trimmingWhitespace, !name.isEmpty else { return nil }
        return name
    }

    /// The USB device sound card `card` sits on; nil when it is not on USB.
    public func usbDevice(ofSoundCard card: Int) -> String? {
        resolve("/class/sound/card\(card)/device").flatMap(Self.usbDevice(inPath:))
    }

    /// The card's short id (`class/sound/cardN/id`, e.g. "C920"), nil when unreadable.
    public func soundCardID(_ card: Int) -> String? {
        SoundFiles.read(root + "/class/sound/card\(card)/id")?.trimmingWhitespace
    }

    /// Where the link at `relative` (below the root) leads, below the root; nil when absent.
    func resolve(_ relative: String) -> String? {
        guard let target = SoundFiles.realPath(root + relative) else { return nil }
        let base = SoundFiles.realPath(root) ?? root
        guard target.hasPrefix(base + "/") else { return target }
        return String(target.dropFirst(base.count))
    }

    /// The USB device part of a sysfs path: up to and including its last component of the
    /// form `1-1` or `1-1.4.2` (bus number, dash, ports); nil when there is none (not USB).
    /// Works on links' targets and on a sound server's `sysfs.path` alike.
    public static func usbDevice(inPath path: String) -> String? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard let last = parts.lastIndex(where: { isUSBDeviceName($0) }) else { return nil }
        return parts[...last].joined(separator: "/")
    }

    /// The bus info a V4L2 driver (uvcvideo) and the ALSA USB driver report for a USB device:
    /// "usb-" + the host controller's name + "-" + the port path, e.g. "usb-0000:00:14.0-1.2"
    /// for ".../0000:00:14.0/usb1/1-1.2" (the kernel's `usb_make_path`).
    public static func busInfo(usbDevice path: String) -> String? {
        let parts = path.split(separator: "/")
        guard let device = parts.last, isUSBDeviceName(device),
              let hub = parts.lastIndex(where: { $0.hasPrefix("usb") && Int($0.dropFirst(3)) != nil }), hub > 0,
              let dash = device.firstIndex(of: "-")
        else { return nil }
        return "usb-\(parts[hub - 1])-\(device[device.index(after: dash)...])"
    }

    /// "1-1", "3-2.4": a bus number, a dash, dot-separated port numbers.
    static func isUSBDeviceName(_ name: Substring) -> Bool {
        let halves = name.split(separator: "-", omittingEmptySubsequences: false)
        guard halves.count == 2, !halves[0].isEmpty, halves[0].allSatisfy(\.isNumber) else { return false }
        let ports = halves[1].split(separator: ".", omittingEmptySubsequences: false)
        return !ports.isEmpty && ports.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isNumber) }
    }
}

/// Small file reads for the sound catalog (sysfs and procfs files are tiny).
enum SoundFiles {
    /// The whole file as text, nil when it cannot be read.
    static func read(_ path: String) -> String? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            if count <= 0 { break }
            bytes += buffer[0..<count]
            if bytes.count > 1 << 20 { break }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The canonical path (links resolved), nil when it does not exist.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}

import Foundation
import Testing
@testable import CamrecKit

/// Matching a camera's microphone on a fake /sys laid out in a temporary folder: a UVC camera
/// with a microphone (video0 and card1 are interfaces 1-1.2:1.0 and 1-1.2:1.3 of one USB
/// device), a camera without one (video2 on 1-1.4), and a built-in sound card on PCI (card0).
struct CameraMicrophoneTests {
    /// The fake tree; removed by `remove()`.
    final class FakeSys: @unchecked Sendable {
        let root: URL
        let tree: SysfsTree

        init() throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("camrec-sys-\(UUID().uuidString)")
            tree = SysfsTree(root: root.path)
            let usb = "devices/pci0000:00/0000:00:14.0/usb1"
            try link("class/video4linux/video0/device", to: "\(usb)/1-1/1-1.2/1-1.2:1.0")
            try link("class/video4linux/video1/device", to: "\(usb)/1-1/1-1.2/1-1.2:1.0")
            try link("class/sound/card1/device", to: "\(usb)/1-1/1-1.2/1-1.2:1.3")
            try link("class/video4linux/video2/device", to: "\(usb)/1-1/1-1.4/1-1.4:1.0")
            try link("class/sound/card0/device", to: "devices/pci0000:00/0000:00:1f.3")
            try Data("C920\n".utf8).write(to: root.appendingPathComponent("class/sound/card1/id"))
        }

        /// A relative link at `path` to the folder `target` (both below the root), as sysfs has.
        private func link(_ path: String, to target: String) throws {
            let manager = FileManager.default
            try manager.createDirectory(at: root.appendingPathComponent(target), withIntermediateDirectories: true)
            let at = root.appendingPathComponent(path)
            try manager.createDirectory(at: at.deletingLastPathComponent(), withIntermediateDirectories: true)
            let depth = path.split(separator: "/").count - 1
            try manager.createSymbolicLink(atPath: at.path, withDestinationPath: String(repeating: "../", count: depth) + target)
        }

        func remove() { try? FileManager.default.removeItem(at: root) }
    }

    static let cameraUSB = "/devices/pci0000:00/0000:00:14.0/usb1/1-1/1-1.2"

    @Test func sysfsLinksLeadToTheUSBDevice() throws {
        let sys = try FakeSys()
        defer { sys.remove() }
        #expect(sys.tree.usbDevice(ofVideoNode: "video0") == Self.cameraUSB)
        #expect(sys.tree.usbDevice(ofSoundCard: 1) == Self.cameraUSB)
        #expect(sys.tree.usbDevice(ofVideoNode: "video2") == "/devices/pci0000:00/0000:00:14.0/usb1/1-1/1-1.4")
        #expect(sys.tree.usbDevice(ofSoundCard: 0) == nil)      // on PCI, not USB
        #expect(sys.tree.usbDevice(ofVideoNode: "video9") == nil)
        #expect(sys.tree.soundCardID(1) == "C920")
    }

    @Test func busInfoIsTheKernelsUSBPath() {
        #expect(SysfsTree.busInfo(usbDevice: Self.cameraUSB) == "usb-0000:00:14.0-1.2")
        #expect(SysfsTree.busInfo(usbDevice: "/devices/platform/soc/3f980000.usb/usb1/1-1") == "usb-3f980000.usb-1")
        #expect(SysfsTree.usbDevice(inPath: Self.cameraUSB + "/1-1.2:1.3/sound/card1") == Self.cameraUSB)
        #expect(SysfsTree.usbDevice(inPath: "/devices/pci0000:00/0000:00:1f.3/sound/card0") == nil)
    }

    /// The camera with a microphone finds its card by sysfs; the camera without finds none;
    /// the built-in card belongs to no camera.
    @Test func cameraWithAndWithoutMicrophone() throws {
        let sys = try FakeSys()
        defer { sys.remove() }
        let cards = [
            SoundCard(number: 0, id: "PCH", name: "HDA Intel PCH", usbDevice: sys.tree.usbDevice(ofSoundCard: 0)),
            SoundCard(number: 1, id: "C920", name: "HD Pro Webcam C920", usbDevice: sys.tree.usbDevice(ofSoundCard: 1)),
        ]
        let withMic = CameraMicrophone.Camera(path: "/dev/video0", usbDevice: sys.tree.usbDevice(ofVideoNode: "video0"))
        let without = CameraMicrophone.Camera(path: "/dev/video2", usbDevice: sys.tree.usbDevice(ofVideoNode: "video2"))
        #expect(CameraMicrophone.card(of: withMic, among: cards)?.number == 1)
        #expect(CameraMicrophone.card(of: without, among: cards) == nil)
    }

    /// A camera with no sysfs entry (the emulated one) is matched by its QUERYCAP bus info,
    /// against /proc/asound/cards' "at usb-…" or the card's sysfs path.
    @Test func cameraWithoutSysfsMatchesByBusInfo() {
        let byProc = [SoundCard(number: 2, id: "Cam", name: "Cam", busInfo: "usb-0000:00:14.0-1.2")]
        let bySys = [SoundCard(number: 2, id: "Cam", name: "Cam", usbDevice: Self.cameraUSB)]
        let camera = CameraMicrophone.Camera(path: "/dev/video0", busInfo: "usb-0000:00:14.0-1.2")
        #expect(CameraMicrophone.card(of: camera, among: byProc)?.number == 2)
        #expect(CameraMicrophone.card(of: camera, among: bySys)?.number == 2)
        #expect(CameraMicrophone.card(of: .init(path: "/dev/video0", busInfo: "usb-0000:00:14.0-1.4"), among: byProc) == nil)
        // A non-USB camera (a platform device) matches nothing, even with an equal text.
        #expect(CameraMicrophone.card(of: .init(path: "/dev/video0", busInfo: "platform:bcm2835"),
                                      among: [SoundCard(number: 0, id: "b", name: "b", busInfo: nil)]) == nil)
    }

    /// The server's source for the card is preferred to hw:C,D; monitors never count.
    @Test func serverSourcePreferredToALSA() {
        let card = SoundCard(number: 1, id: "C920", name: "HD Pro Webcam C920", usbDevice: Self.cameraUSB)
        let alsa = [SoundSource(origin: .alsa, name: "hw:1,0", description: "C920", card: 1, usbDevice: Self.cameraUSB)]
        let server = [
            SoundSource(origin: .server, name: "alsa_output.usb.monitor", description: "Monitor", isMonitor: true, card: 1),
            SoundSource(origin: .server, name: "alsa_input.usb-046d_C920", description: "C920", card: 1),
        ]
        #expect(CameraMicrophone.source(on: card, serverSources: server, alsaSources: alsa)?.name == "alsa_input.usb-046d_C920")
        #expect(CameraMicrophone.source(on: card, serverSources: [], alsaSources: alsa)?.name == "hw:1,0")
        #expect(CameraMicrophone.source(on: card, serverSources: [server[0]], alsaSources: [])?.name == nil)
        // Matched by the source's sysfs USB device when the server gives no card number.
        let bySysfs = SoundSource(origin: .server, name: "mic", description: "mic", usbDevice: Self.cameraUSB)
        #expect(CameraMicrophone.source(on: card, serverSources: [bySysfs], alsaSources: alsa)?.name == "mic")
        // The listing names the camera each source belongs to.
        let attached = CameraMicrophone.attach(cameras: [.init(path: "/dev/video0", usbDevice: Self.cameraUSB)],
                                               to: server + alsa, cards: [card])
        #expect(attached.map(\.camera) == [nil, "/dev/video0", "/dev/video0"])
    }
}

import Foundation
import Testing
@testable import CamrecKit

/// The machine layer on fake trees: /proc/asound (cards, a USB microphone's stream0), /sys
/// (CameraMicrophoneTests.FakeSys) and /dev (capture nodes and camera nodes as plain
/// files), read by `SoundCatalog.scan` and `CameraMicrophone.camera`, then resolved.
struct SoundMachineTests {
    final class FakeMachine: @unchecked Sendable {
        let sys: CameraMicrophoneTests.FakeSys
        let folder: URL
        var asound: String { folder.appendingPathComponent("asound").path }
        var snd: String { folder.appendingPathComponent("snd").path }
        var dev: URL { folder.appendingPathComponent("dev") }

        init() throws {
            sys = try CameraMicrophoneTests.FakeSys()
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("camrec-machine-\(UUID().uuidString)")
            let manager = FileManager.default
            for sub in ["asound/card1", "snd", "dev"] {
                try manager.createDirectory(at: folder.appendingPathComponent(sub), withIntermediateDirectories: true)
            }
            try Data(SoundParsingTests.cards.utf8).write(to: folder.appendingPathComponent("asound/cards"))
            try Data("Capture:\n  Interface 3\n    Channels: 1\n    Rates: 16000, 48000\n".utf8)
                .write(to: folder.appendingPathComponent("asound/card1/stream0"))
            for node in ["pcmC0D0c", "pcmC0D0p", "pcmC1D0c", "controlC1"] {
                try Data().write(to: folder.appendingPathComponent("snd/\(node)"))
            }
            for node in ["video0", "video2"] {
                try Data().write(to: dev.appendingPathComponent(node))
            }
        }

        func remove() {
            sys.remove()
            try? FileManager.default.removeItem(at: folder)
        }
    }

    @Test func scanReadsCardsNodesAndUSBDevices() throws {
        let machine = try FakeMachine()
        defer { machine.remove() }
        let catalog = SoundCatalog.scan(sysfs: machine.sys.tree, asound: machine.asound, snd: machine.snd)
        #expect(catalog.cards.map(\.id) == ["PCH", "C920"])
        #expect(catalog.cards[1].usbDevice == CameraMicrophoneTests.cameraUSB && catalog.cards[0].usbDevice == nil)
        #expect(catalog.alsaSources.map(\.name) == ["hw:0,0", "hw:1,0"])
        #expect(catalog.alsaSources[1].channels == 1 && catalog.alsaSources[1].rate == 48000)
        #expect(catalog.alsaSources[1].description == "HD Pro Webcam C920 (C920), device 0")
        // The camera node's sysfs entry leads to the card's USB device.
        let camera = CameraMicrophone.camera(path: machine.dev.appendingPathComponent("video0").path, sysfs: machine.sys.tree)
        #expect(camera.usbDevice == CameraMicrophoneTests.cameraUSB && camera.busInfo == nil)
        let attached = catalog.attaching(cameras: [camera])
        #expect(attached.alsaSources.map(\.camera) == [nil, camera.path])
    }

    /// The resolver over the fake machine, with no sound server: `camera` is hw:1,0 (mono),
    /// the camera without a microphone is exit 66, `hw:1,0` opens (a plain file here).
    @Test func resolverOverTheFakeMachine() throws {
        let machine = try FakeMachine()
        defer { machine.remove() }
        let tree = machine.sys.tree, asound = machine.asound, snd = machine.snd
        var catalog = SoundCatalog.scan(sysfs: tree, asound: asound, snd: snd)
        catalog.server = nil
        catalog.serverSources = []
        let fixed = catalog
        let resolver = AudioSourceResolver(
            catalog: { fixed },
            camera: { CameraMicrophone.camera(path: $0, sysfs: tree) },
            alsaState: { AlsaCaptureNodes.state(of: $0, folder: snd) },
            elementExists: { _ in true })
        let video0 = machine.dev.appendingPathComponent("video0").path
        let input = try #require(try resolver.resolve(.camera, camera: video0))
        #expect(input.element == .alsa(device: "hw:1,0") && input.channels == 1 && input.rate == 48000 && input.camera == video0)
        let video2 = machine.dev.appendingPathComponent("video2").path
        #expect(throws: CamrecError(.noCamera, "the camera \(video2) has no microphone (no sound device on its USB device); camrec devices lists sound sources")) {
            try resolver.resolve(.camera, camera: video2)
        }
        #expect(try resolver.resolve(.alsa("hw:1,0"), camera: nil)?.element == .alsa(device: "hw:1,0"))
        #expect(try resolver.resolve(.systemDefault, camera: nil)?.element == .alsa(device: "default"))
        #expect(AlsaCaptureNodes.state(of: .init(card: 5, device: 0), folder: snd) == .missing)
    }
}

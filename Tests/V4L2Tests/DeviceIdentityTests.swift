import Foundation
import Testing
@testable import V4L2

@Suite struct DeviceIdentityTests {
    static let byID = "/dev/v4l/by-id/usb-046d_HD_Pro_Webcam_C920_ABCD1234-video-index0"
    static let otherByID = "/dev/v4l/by-id/usb-046d_HD_Pro_Webcam_C920_FFFF0000-video-index0"
    static let byPath = "/dev/v4l/by-path/pci-0000:00:14.0-usb-0:1:1.0-video-index0"

    static func camera(_ path: String, card: String = "HD Pro Webcam C920", bus: String = "usb-0000:00:14.0-1",
                       byID: String? = nil, byPath: String? = nil) -> CaptureDevice {
        CaptureDevice(path: path, card: card, driver: "uvcvideo", bus: bus, capabilities: ["video_capture", "streaming"],
                      formats: Fixtures.webcamFormats, controls: [], byID: byID, byPath: byPath)
    }

    @Test func byIDDecidesWhenBothHaveOne() {
        let identity = DeviceIdentity(card: "HD Pro Webcam C920", bus: "usb-0000:00:14.0-1", byID: Self.byID)
        // moved to another port: still the camera
        #expect(identity.match(DeviceIdentity(card: "HD Pro Webcam C920", bus: "usb-0000:00:14.0-3", byID: Self.byID)) == .byID)
        // the same model in the same port, another serial number: another camera
        #expect(identity.match(DeviceIdentity(card: "HD Pro Webcam C920", bus: "usb-0000:00:14.0-1", byID: Self.otherByID)) == nil)
    }

    @Test func busAndCardWhenEitherHasNoByID() {
        let identity = DeviceIdentity(card: "HD Pro Webcam C920", bus: "usb-0000:00:14.0-1")
        #expect(identity.match(DeviceIdentity(card: "HD Pro Webcam C920", bus: "usb-0000:00:14.0-1", byID: Self.byID)) == .busAndCard)
        #expect(identity.match(DeviceIdentity(card: "HD Pro Webcam C920", bus: "usb-0000:00:14.0-2")) == nil)
        #expect(identity.match(DeviceIdentity(card: "Integrated Camera", bus: "usb-0000:00:14.0-1")) == nil)
        // a driver that reports no bus info identifies nothing by it
        #expect(DeviceIdentity(card: "X", bus: "").match(DeviceIdentity(card: "X", bus: "")) == nil)
    }

    @Test func findPrefersTheByIDLinkThenTheSamePortThenTheFirst() {
        let identity = DeviceIdentity(card: "HD Pro Webcam C920", bus: "usb-0000:00:14.0-1", byID: Self.byID, byPath: Self.byPath)
        let sameModelSamePort = Self.camera("/dev/video0")
        let moved = Self.camera("/dev/video4", bus: "usb-0000:00:14.0-3", byID: Self.byID)
        #expect(identity.find(in: [sameModelSamePort, moved])?.path == "/dev/video4")
        #expect(identity.find(in: [sameModelSamePort])?.path == "/dev/video0")
        #expect(identity.find(in: [Self.camera("/dev/video0", byID: Self.otherByID)]) == nil)
        // two capture nodes of one camera without by-id links: the one with our by-path link
        let second = Self.camera("/dev/video2", byPath: Self.byPath)
        #expect(identity.find(in: [sameModelSamePort, second])?.path == "/dev/video2")
        #expect(DeviceIdentity(card: "HD Pro Webcam C920", bus: "usb-0000:00:14.0-1").find(in: [sameModelSamePort, second])?.path
            == "/dev/video0")
        #expect(identity.find(in: []) == nil)
    }

    @Test func stableNameAndDescription() {
        let device = Self.camera("/dev/video2", byID: Self.byID, byPath: Self.byPath)
        #expect(device.stableName == Self.byID)
        #expect(device.identity == DeviceIdentity(card: "HD Pro Webcam C920", bus: "usb-0000:00:14.0-1", byID: Self.byID, byPath: Self.byPath))
        #expect(Self.camera("/dev/video2", byPath: Self.byPath).stableName == Self.byPath)
        #expect(Self.camera("/dev/video2").stableName == nil)
        #expect(DeviceIdentity(card: "Cam", bus: "usb-1").description == "Cam (usb-1)")
        #expect(device.identity.description == "HD Pro Webcam C920 (usb-0000:00:14.0-1, \(Self.byID))")
    }

    /// Listings and other tools that stored a device before these fields existed still decode it.
    @Test func captureDeviceDecodesWithoutStableNamesAndRoundTrips() throws {
        let device = Self.camera("/dev/video2", byID: Self.byID)
        let data = try JSONEncoder().encode(device)
        #expect(try JSONDecoder().decode(CaptureDevice.self, from: data) == device)
        var object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        object["byID"] = nil
        object["byPath"] = nil
        let old = try JSONDecoder().decode(CaptureDevice.self, from: try JSONSerialization.data(withJSONObject: object))
        #expect(old.byID == nil && old.path == "/dev/video2")
    }

    @Test func selectorMatchesAStableLinkOfAListedDevice() throws {
        let devices = [Self.camera("/dev/video0", card: "Integrated Camera", bus: "usb-0000:00:14.0-8"),
                       Self.camera("/dev/video2", byID: Self.byID, byPath: Self.byPath)]
        #expect(DeviceSelector(Self.byID) == .path(Self.byID))
        #expect(try DeviceSelector.path(Self.byID).resolve(in: devices).path == "/dev/video2")
        #expect(try DeviceSelector.path(Self.byPath).resolve(in: devices).path == "/dev/video2")
        #expect(throws: SelectionError.self) { try DeviceSelector.path(Self.otherByID).resolve(in: devices) }
    }
}

/// Stable names read from folders of real symlinks, shaped like /dev/v4l.
@Suite struct StableNamesTests {
    /// A folder with dev/video0, dev/video1, dev/v4l/by-id and dev/v4l/by-path.
    private func withDevFolder(_ body: (URL, StableNames) throws -> Void) throws {
        let fm = FileManager.default
        let root = fm.temporaryDirectory.appendingPathComponent("v4l2-names-\(UUID().uuidString)")
        defer { try? fm.removeItem(at: root) }
        let dev = root.appendingPathComponent("dev")
        let byID = dev.appendingPathComponent("v4l/by-id"), byPath = dev.appendingPathComponent("v4l/by-path")
        try fm.createDirectory(at: byID, withIntermediateDirectories: true)
        try fm.createDirectory(at: byPath, withIntermediateDirectories: true)
        for node in ["video0", "video1"] {
            #expect(fm.createFile(atPath: dev.appendingPathComponent(node).path, contents: Data()))
        }
        try body(dev, StableNames(byIDDirectory: byID.path, byPathDirectory: byPath.path))
    }

    @Test func linksAreFoundByTheNodeTheyPointTo() throws {
        try withDevFolder { dev, names in
            let fm = FileManager.default
            // relative, as udev makes them
            try fm.createSymbolicLink(atPath: names.byIDDirectory + "/usb-Cam_B-video-index0", withDestinationPath: "../../video0")
            try fm.createSymbolicLink(atPath: names.byIDDirectory + "/usb-Cam_A-video-index0", withDestinationPath: "../../video0")
            try fm.createSymbolicLink(atPath: names.byIDDirectory + "/usb-Gone-video-index0", withDestinationPath: "../../video9")
            try fm.createSymbolicLink(atPath: names.byPathDirectory + "/pci-usb-0:1-video-index0",
                                      withDestinationPath: dev.appendingPathComponent("video1").path)
            let video0 = try #require(StableNames.resolve(dev.appendingPathComponent("video0").path))
            let video1 = try #require(StableNames.resolve(dev.appendingPathComponent("video1").path))
            let snapshot = names.snapshot()
            // of two links to one node the first by name; a dangling link is left out
            #expect(snapshot.byID == [video0: names.byIDDirectory + "/usb-Cam_A-video-index0"])
            #expect(snapshot.byPath == [video1: names.byPathDirectory + "/pci-usb-0:1-video-index0"])
            #expect(snapshot.names(forNode: video1) == (nil, names.byPathDirectory + "/pci-usb-0:1-video-index0"))
            // a link given for the node resolves to it first
            #expect(snapshot.names(forNode: names.byIDDirectory + "/usb-Cam_B-video-index0").byID
                == names.byIDDirectory + "/usb-Cam_A-video-index0")
            #expect(StableNames.entries(of: names.byIDDirectory)
                == ["usb-Cam_A-video-index0", "usb-Cam_B-video-index0", "usb-Gone-video-index0"])
        }
    }

    @Test func missingFoldersGiveNoNames() {
        let names = StableNames(byIDDirectory: "/nonexistent/by-id", byPathDirectory: "/nonexistent/by-path")
        #expect(names.snapshot() == StableNames.Snapshot())
        #expect(StableNames.resolve("/nonexistent/video0") == nil)
    }

    @Test func containsOnlyLinksDirectlyInTheFolders() {
        let names = StableNames.system
        #expect(names.contains("/dev/v4l/by-id/usb-Cam-video-index0"))
        #expect(names.contains("/dev/v4l/by-path/pci-0000:00:14.0-usb-0:1:1.0-video-index0"))
        #expect(!names.contains("/dev/v4l/by-id/"))
        #expect(!names.contains("/dev/v4l/by-id"))
        #expect(!names.contains("/dev/v4l/by-id/a/b"))
        #expect(!names.contains("/dev/video0"))
    }

    /// A symlink given as a device path is probed at its node; errors name the path given.
    @Test func probeResolvesALinkToItsNode() throws {
        let link = FileManager.default.temporaryDirectory.appendingPathComponent("v4l2-link-\(UUID().uuidString)").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/dev/null")
        defer { try? FileManager.default.removeItem(atPath: link) }
        #expect(DeviceDiscovery.nodePath(link) == "/dev/null")
        #expect(DeviceDiscovery.nodePath("/dev/null") == "/dev/null")
        #expect(DeviceDiscovery.nodePath("/nonexistent/video0") == "/nonexistent/video0")
        #expect(throws: DeviceError.notACaptureDevice(path: link)) { try DeviceDiscovery.probe(path: link) }
        #expect(throws: DeviceError.notFound(path: "/dev/v4l/by-id/nonexistent-camera")) {
            try DeviceDiscovery.probe(path: "/dev/v4l/by-id/nonexistent-camera")
        }
        #expect(throws: DeviceError.notACaptureDevice(path: link)) { try DeviceIdentity.read(path: link) }
    }

    @Test func locateWithoutTheCameraIsNil() throws {
        let identity = DeviceIdentity(card: "No Such Camera 9f3c", bus: "usb-9999:99:99.9-9",
                                      byID: "/dev/v4l/by-id/usb-No_Such_Camera_9f3c-video-index0")
        #expect(try DeviceDiscovery.locate(identity, extraPaths: nil) == nil)
    }
}

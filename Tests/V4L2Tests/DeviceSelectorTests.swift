#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import V4L2

@Suite struct DeviceSelectorTests {
    let cameras = [
        Fixtures.device(path: "/dev/video0", card: "Integrated Camera: Integrated C", index: 0),
        Fixtures.device(path: "/dev/video2", card: "Logitech BRIO", index: 1),
        Fixtures.device(path: "/dev/video4", card: "Logitech C920", index: 2),
    ]

    @Test func parses() {
        #expect(DeviceSelector("/dev/video2") == .path("/dev/video2"))
        #expect(DeviceSelector("0") == .index(0))
        #expect(DeviceSelector(" 12 ") == .index(12))
        #expect(DeviceSelector("brio") == .name("brio"))
        #expect(DeviceSelector("-1") == .name("-1"))        // not a non-negative index
        #expect(DeviceSelector("video0") == .name("video0"))  // relative text is a name, never a path
        #expect(DeviceSelector("") == nil)
        #expect(DeviceSelector("  ") == nil)
    }

    @Test func resolvesByPathIndexAndUniqueName() throws {
        #expect(try DeviceSelector.path("/dev/video2").resolve(in: cameras).card == "Logitech BRIO")
        #expect(try DeviceSelector.index(2).resolve(in: cameras).path == "/dev/video4")
        #expect(try DeviceSelector.name("BRIO").resolve(in: cameras).path == "/dev/video2")
        #expect(try DeviceSelector.name("integrated").resolve(in: cameras).path == "/dev/video0")
    }

    @Test func ambiguousNameListsMatches() {
        #expect(throws: SelectionError.ambiguous(selector: "logitech", matches: [
            "/dev/video2 (Logitech BRIO)", "/dev/video4 (Logitech C920)",
        ])) { try DeviceSelector.name("logitech").resolve(in: cameras) }
        #expect(SelectionError.ambiguous(selector: "logitech", matches: ["/dev/video2 (Logitech BRIO)", "/dev/video4 (Logitech C920)"]).message
            == "'logitech' matches several cameras: /dev/video2 (Logitech BRIO), /dev/video4 (Logitech C920); use a path or an index")
    }

    @Test func noMatchListsTheCamerasThatExist() {
        do {
            _ = try DeviceSelector.name("foo").resolve(in: cameras)
            Issue.record("expected an error")
        } catch {
            #expect(error.message == "no camera matches 'foo'; cameras: /dev/video0 (Integrated Camera: Integrated C), /dev/video2 (Logitech BRIO), /dev/video4 (Logitech C920)")
        }
        do {
            _ = try DeviceSelector.index(3).resolve(in: cameras)
            Issue.record("expected an error")
        } catch {
            #expect(error.message.hasPrefix("no camera matches '3'; cameras: 0: /dev/video0 (Integrated Camera: Integrated C), 1: /dev/video2"))
        }
        #expect(throws: SelectionError.self) { try DeviceSelector.path("/dev/video9").resolve(in: cameras) }
    }

    @Test func noCamerasSaysSoOrWhy() {
        do {
            _ = try DeviceSelector.index(0).resolve(in: [])
            Issue.record("expected an error")
        } catch {
            #expect(error.message.hasPrefix("no camera found: is one connected?"))
        }
        do {
            _ = try DeviceSelector.index(0).resolve(in: DeviceScan(devices: [], failures: [.permissionDenied(path: "/dev/video0")]))
            Issue.record("expected an error")
        } catch {
            #expect(error.message.hasPrefix("no usable camera found: permission denied opening /dev/video0"))
            #expect(error.message.contains("sudo usermod -aG video $USER"))
        }
        // A busy camera says most (camrec exits 75 for it), wherever it is in the list.
        let failures: [DeviceError] = [.notFound(path: "/dev/x"), .ioctlFailed(path: "/dev/video0", request: "VIDIOC_QUERYCAP", errno: EIO),
                                       .permissionDenied(path: "/dev/video1"), .busy(path: "/dev/video2")]
        #expect(SelectionError.noCameras(failures: failures).message.hasPrefix("no usable camera found: camera /dev/video2 is busy"))
        #expect(DeviceError.mostTelling(failures) == .busy(path: "/dev/video2"))
        #expect(DeviceError.mostTelling(Array(failures.prefix(3))) == .permissionDenied(path: "/dev/video1"))
        #expect(DeviceError.mostTelling(Array(failures.prefix(2))) == .ioctlFailed(path: "/dev/video0", request: "VIDIOC_QUERYCAP", errno: EIO))
        #expect(DeviceError.mostTelling(Array(failures.prefix(1))) == nil)
    }
}

import Foundation
import Testing
@testable import V4L2

@Suite struct DeviceDiscoveryTests {
    @Test func candidatesAreStandardNodesThenEnvironmentDeduplicated() {
        let paths = DeviceDiscovery.candidatePaths(extraPaths: "/tmp/cam:/dev/video3::/tmp/cam: /dev/video64 ")
        #expect(paths.count == 66)
        #expect(paths.first == "/dev/video0")
        #expect(paths[63] == "/dev/video63")
        #expect(Array(paths.suffix(2)) == ["/tmp/cam", "/dev/video64"])
        #expect(DeviceDiscovery.candidatePaths(extraPaths: nil).count == 64)
    }

    @Test func probeMissingPathIsNotFound() {
        #expect(throws: DeviceError.notFound(path: "/nonexistent/video0")) {
            try DeviceDiscovery.probe(path: "/nonexistent/video0")
        }
    }

    @Test func probeOfNonV4L2NodesIsNotACaptureDevice() throws {
        // A regular file (not a character device), and /dev/null (a character device that
        // answers VIDIOC_QUERYCAP with ENOTTY).
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("v4l2-test-\(getpid())").path
        #expect(FileManager.default.createFile(atPath: file, contents: Data()))
        defer { try? FileManager.default.removeItem(atPath: file) }
        #expect(throws: DeviceError.notACaptureDevice(path: file)) { try DeviceDiscovery.probe(path: file) }
        #expect(throws: DeviceError.notACaptureDevice(path: "/dev/null")) { try DeviceDiscovery.probe(path: "/dev/null") }
    }

    @Test func scanSkipsNonCameraNodesAndReportsMissingExplicitPaths() {
        let scan = DeviceDiscovery.scan(extraPaths: "/dev/null:/nonexistent/cam")
        #expect(!scan.devices.contains { $0.path == "/dev/null" })
        #expect(scan.failures.contains(.notFound(path: "/nonexistent/cam")))
        #expect(!scan.failures.contains(.notACaptureDevice(path: "/dev/null")))
        for (position, device) in scan.devices.enumerated() { #expect(device.index == position) }
    }

    @Test func findByPathReportsTheProbeError() {
        #expect(throws: SelectionError.device(.notFound(path: "/nonexistent/cam"))) {
            try DeviceDiscovery.find(.path("/nonexistent/cam"), extraPaths: nil)
        }
    }

    /// The cameras that could not be opened and might have been the one asked for.
    @Test func skippedNodesAreThoseTheSelectorMayHaveMeant() {
        let order = DeviceDiscovery.candidatePaths(extraPaths: "/dev/extra")
        let failures: [DeviceError] = [.busy(path: "/dev/video0"), .permissionDenied(path: "/dev/video3"), .notFound(path: "/dev/extra")]
        // The first camera (index 0) is /dev/video2: only /dev/video0 came before it.
        #expect(DeviceDiscovery.skipped(by: .index(0), choosing: "/dev/video2", failures: failures, order: order)
            == [.busy(path: "/dev/video0")])
        #expect(DeviceDiscovery.skipped(by: .index(1), choosing: "/dev/video5", failures: failures, order: order)
            == Array(failures.prefix(2)))
        #expect(DeviceDiscovery.skipped(by: .index(0), choosing: "/dev/video0", failures: [.busy(path: "/dev/video1")], order: order).isEmpty)
        #expect(DeviceDiscovery.skipped(by: .name("rear"), choosing: "/dev/video2", failures: failures, order: order) == failures)
        #expect(DeviceDiscovery.skipped(by: .path("/dev/video2"), choosing: "/dev/video2", failures: failures, order: order).isEmpty)
    }

    @Test func fourccText() {
        #expect(fourccString(0x5659_5559) == "YUYV")
        #expect(fourccString(0x4750_4A4D) == "MJPG")
        #expect(fourccString(0x2036_3159) == "Y16 ")
        #expect(fourccString(0x8000_0000 | 0x2036_3159) == "Y16 -BE")
    }
}

@Suite struct CanonicalPathTests {
    @Test func resolvesSymlinksAndKeepsUnresolvablePaths() throws {
        let link = FileManager.default.temporaryDirectory.appendingPathComponent("v4l2-null-\(getpid())").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/dev/null")
        defer { try? FileManager.default.removeItem(atPath: link) }
        #expect(DeviceDiscovery.canonicalPath(link) == "/dev/null")
        #expect(DeviceDiscovery.canonicalPath("/nonexistent/video0") == "/nonexistent/video0")
    }
}

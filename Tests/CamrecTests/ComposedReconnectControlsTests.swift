import Foundation
import Testing

/// Issue 31: `--layout` with `--reconnect` and `--set`: a camera plugged in again comes
/// back with its power-on controls, so camrec sets its own again when the camera is back in
/// its cell (as for one camera), and puts them back at the end where the camera now is.
@Suite(.serialized) struct ComposedReconnectControlsTests {
    @Test("--set with --layout --reconnect: a camera back in its cell (at another node) has camrec's controls set again, and put back there at the end")
    func controlsAreSetAgainOnACameraBackInItsCell() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let movie = folder.path("back.mkv")
        let spec = "/dev/video0,formats=yuyv,sizes=320x240@30,overrun=wait,trace=controls;"
            + "/dev/video1,formats=yuyv,sizes=320x240@30,overrun=wait,trace=controls,fault=unplug@45,replug=300@/dev/video3"
        var environment = try VirtualCameraEnvironment.shared().environment(spec: spec)
        environment["CAMREC_DEVICE_PATHS"] = nil
        environment["SWIFT_BACKTRACE"] = "enable=no"
        let run = try CamrecBinary.run(["-d", "/dev/video0", "-d", "/dev/video1", "--layout", "side-by-side",
                                        "--canvas", "640x240", "--reconnect", "--set", "brightness=20",
                                        "--max-duration", "4", "--json", movie],
                                       environment: environment, timeout: 120)
        #expect(run.status == 0, "\(run.stderr.suffix(2000))")
        let lines = JSONLines.parse(run)
        let back = lines.filter { $0["type"] as? String == "camera-back" }
        #expect(back.count == 1 && back.first?["device"] as? String == "/dev/video3", "\(back)")
        let writes = run.stderr.split(separator: "\n").filter { $0.contains("VirtualCamera:") && $0.contains(": set Brightness") }
        func own(_ device: String) -> [String] {
            writes.filter { $0.contains("\(device): set ") }.map { String($0.split(separator: ": set ").last ?? "") }
        }
        #expect(own("/dev/video0") == ["Brightness = 20", "Brightness = 0"], "\(writes)")
        // The emulated camera names itself by its first node in its trace, wherever it is
        // plugged in again: set at the start, set again when it is back, put back at the
        // end (where it now is: the old node is gone, a write there would fail).
        #expect(own("/dev/video1") == ["Brightness = 20", "Brightness = 20", "Brightness = 0"], "\(writes)")
        #expect(!run.stderr.contains("cannot set"), "\(run.stderr.suffix(2000))")
        let probe = try MediaProbe.probe(movie)
        #expect(probe.frames == 120, "ffprobe counted \(probe.frames)")
    }
}

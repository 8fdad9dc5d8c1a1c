import Foundation
import Testing

/// A recording that finds unfinished movies of an earlier camrec beside OUTPUT says so
/// once, with the command that recovers them, and never touches them.
struct StalePartialWarningTests {
    @Test func staleMoviesAreMentionedOnceAndLeftAlone() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let stale = Data("a movie cut short".utf8)
        try stale.write(to: URL(fileURLWithPath: folder.path("old.partial.mp4")))
        try stale.write(to: URL(fileURLWithPath: folder.path("cam-0001.partial.mkv")))
        let result = try CamrecBinary.run(["--device", "test", "--size", "320x240", "-t", "0.5", "--segment", "1",
                                           "--json", folder.path("cam.mkv")])
        #expect(result.status == 0, "\(result.stderr)")
        let warnings = JSONLines.parse(result).filter { $0["type"] as? String == "warning" }
        #expect(warnings.count == 1, "\(warnings)")
        let message = warnings.first?["message"] as? String ?? ""
        #expect(message.contains("camrec recover"), "\(message)")
        #expect(message.contains("old.partial.mp4") && message.contains("cam-0001.partial.mkv"), "\(message)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder.path("old.partial.mp4"))) == stale)
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder.path("cam-0001.partial.mkv"))) == stale)
        // The counter went past the stale movie's 0001: nothing is ever written over it.
        #expect(folder.contents.contains("cam-0002.mkv"), "\(folder.contents)")
    }

    /// Issue 31: a canvas (`--layout`) is one run like a single camera's: the same warning,
    /// said once, by the same code (it was a copy of its own in the CLI).
    @Test func aCanvasMentionsThemOnceToo() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let stale = Data("a movie cut short".utf8)
        try stale.write(to: URL(fileURLWithPath: folder.path("old.partial.mp4")))
        var environment = try VirtualCameraEnvironment.shared().environment(
            spec: "/dev/video0,formats=yuyv,sizes=320x240@30;/dev/video1,formats=yuyv,sizes=320x240@30")
        environment["CAMREC_DEVICE_PATHS"] = nil
        let result = try CamrecBinary.run(["--device", "/dev/video0", "--device", "/dev/video1", "--layout", "side-by-side",
                                           "--canvas", "640x240", "-t", "0.5", "--json", folder.path("canvas.mp4")],
                                          environment: environment, timeout: 120)
        #expect(result.status == 0, "\(result.stderr)")
        let warnings = JSONLines.parse(result).filter { $0["type"] as? String == "warning" }
        #expect(warnings.count == 1, "\(warnings)")
        let message = warnings.first?["message"] as? String ?? ""
        #expect(message.contains("camrec recover") && message.contains("old.partial.mp4"), "\(message)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder.path("old.partial.mp4"))) == stale)
        #expect(folder.contents.contains("canvas.mp4"), "\(folder.contents)")
    }
}

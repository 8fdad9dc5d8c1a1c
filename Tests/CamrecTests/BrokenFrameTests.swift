import Foundation
import Testing

/// What cheap UVC cameras deliver, through the emulated camera: empty frames (`bytesused`
/// 0) and MJPEG frames cut short with garbage after them. None reaches the movie or a still;
/// every one is counted; the counts agree with the file.
@Suite(.serialized) struct BrokenFrameTests {
    func environment(_ spec: String) throws -> [String: String] {
        var environment = try VirtualCameraEnvironment.shared().environment(spec: spec)
        environment["CAMREC_DEVICE_PATHS"] = nil
        return environment
    }

    static func stills(_ lines: [[String: Any]]) -> [[String: Any]] { lines.filter { $0["type"] as? String == "still" } }

    /// Every 10th frame empty (9, 19, … 89): 81 frames in the movie, 9 dropped, for MJPEG
    /// (v4l2src passes empty buffers on) and YUYV (v4l2src drops them itself).
    @Test(arguments: ["mjpeg", "yuyv"])
    func emptyFramesAreDroppedAndCounted(formats: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let output = folder.path("empty.mkv")
        let result = try CamrecBinary.run(["--device", "/dev/video0", "--size", "640x480", "--fps", "30", "-t", "3",
                                           "--still-every", "0.1", "--json", output],
                                          environment: environment("/dev/video0,formats=\(formats),empty=every:10"))
        #expect(result.status == 0, "\(result.stderr)")
        let lines = JSONLines.parse(result)
        let summary = try #require(lines.last)
        let file = try #require((summary["files"] as? [[String: Any]])?.first { $0["kind"] as? String == "movie" })
        let probe = try MediaProbe.probe(output)
        #expect(file["frames"] as? Int == probe.frames, "result \(file["frames"] ?? "nil") vs file \(probe.frames)")
        let dropped = summary["dropped_frames"] as? Int ?? -1
        #expect(probe.frames + dropped == 90, "\(probe.frames) frames + \(dropped) dropped")
        #expect(dropped >= 9, "the 9 empty frames are dropped frames")
        #expect(summary["corrupt_frames"] as? Int == 0)
        // No camera stamp of an empty frame in the movie.
        let stamps = try FrameStampReader.sequences(inVideo: URL(fileURLWithPath: output)).compactMap { $0 }
        #expect(!stamps.contains { $0 % 10 == 9 }, "an empty frame's neighbour or itself: \(stamps)")
        // Every still has bytes and decodes.
        let stills = Self.stills(lines)
        #expect(stills.count >= 10)
        for still in stills {
            #expect((still["bytes"] as? Int ?? 0) > 0, "\(still)")
            let path = try #require(still["path"] as? String)
            #expect(try MediaProbe.decodeErrors(path).isEmpty, "\(path)")
        }
        #expect(try MediaProbe.decodeErrors(output).isEmpty)
    }

    /// Every 10th MJPEG frame cut short: left out of the movie (which decodes cleanly) and
    /// the stills, counted as corrupt and dropped, with one warning.
    @Test func corruptFramesAreDroppedCountedAndWarnedOnce() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let output = folder.path("corrupt.mp4")
        let result = try CamrecBinary.run(["--device", "/dev/video0", "--size", "640x480", "--fps", "30", "-t", "3",
                                           "--still-every", "0.1", "--json", output],
                                          environment: environment("/dev/video0,formats=mjpeg,corrupt=every:10"))
        #expect(result.status == 0, "\(result.stderr)")
        let lines = JSONLines.parse(result)
        let summary = try #require(lines.last)
        #expect(summary["corrupt_frames"] as? Int == 9, "\(summary)")
        let warnings = lines.filter { $0["type"] as? String == "warning" }.compactMap { $0["message"] as? String }
        #expect(warnings.filter { $0.contains("corrupt frame") }.count == 1, "\(warnings)")
        let probe = try MediaProbe.probe(output)
        let file = try #require((summary["files"] as? [[String: Any]])?.first { $0["kind"] as? String == "movie" })
        #expect(file["frames"] as? Int == probe.frames)
        let dropped = summary["dropped_frames"] as? Int ?? -1
        #expect(probe.frames + dropped == 90, "\(probe.frames) frames + \(dropped) dropped")
        #expect(try MediaProbe.decodeErrors(output).isEmpty)
        let stamps = try FrameStampReader.sequences(inVideo: URL(fileURLWithPath: output)).compactMap { $0 }
        #expect(!stamps.contains { $0 % 10 == 9 }, "a corrupt frame is in the movie: \(stamps)")
        let stills = Self.stills(lines)
        #expect(stills.count >= 10)
        for still in stills {
            let path = try #require(still["path"] as? String)
            // The camera's own JPEG bytes: each must be whole (ends with EOI) and decode cleanly.
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            #expect(bytes.suffix(2) == Data([0xFF, 0xD9]), "\(path) is cut short")
            #expect(try MediaProbe.decodeErrors(path).isEmpty, "\(path)")
        }
    }

    /// `camrec still` never saves an empty or cut-short frame as the photo.
    @Test(arguments: ["corrupt=every:2", "empty=every:2"])
    func photoIsNeverABrokenFrame(fault: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let result = try CamrecBinary.run(["still", "--device", "/dev/video0", "--size", "640x480", "--settle", "0",
                                           "--count", "6", "--interval", "0.03", "--json", folder.path("p-%02d.jpg")],
                                          environment: environment("/dev/video0,formats=mjpeg,\(fault)"))
        #expect(result.status == 0, "\(result.stderr)")
        let stills = Self.stills(JSONLines.parse(result))
        #expect(stills.count == 6)
        for still in stills {
            let path = try #require(still["path"] as? String)
            #expect((still["bytes"] as? Int ?? 0) > 0)
            #expect(try MediaProbe.decodeErrors(path).isEmpty, "\(path)")
            let stamp = try FrameStampReader.sequence(inImage: URL(fileURLWithPath: path))
            #expect(stamp.map { $0 % 2 == 0 } == true, "photo of camera frame \(stamp.map(String.init) ?? "?")")
        }
    }

    /// Issue 29 item 8: a camera that sends only empty or only corrupt frames ends the
    /// recording after the start timeout (5 s without a usable frame) with exit 79 and the
    /// counts, instead of running for ever; nothing is left behind.
    @Test(arguments: ["corrupt=every:1", "empty=every:1"])
    func item8_onlyBrokenFramesEndTheRunWith79(fault: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let output = folder.path("broken.mp4")
        let result = try CamrecBinary.run(["--device", "/dev/video0", "--size", "640x480", "--max-duration", "none",
                                           "--json", output],
                                          environment: environment("/dev/video0,formats=mjpeg,\(fault)"), timeout: 120)
        #expect(result.status == 79, "\(result.status) \(result.stderr)")
        let error = try #require(JSONLines.parse(result).last { $0["type"] as? String == "error" }, "\(result.stdout)")
        let message = error["message"] as? String ?? ""
        #expect(error["exit_code"] as? Int == 79)
        let kind = fault.hasPrefix("corrupt") ? "corrupt" : "empty"
        // The count of the frames it held back, more than a handful in 5 s at 30 fps.
        let count = message.firstMatch(of: try Regex("([0-9]+) \(kind)"))
            .flatMap { Int($0.output[1].substring ?? "") } ?? 0
        #expect(count > 30, "\(message)")
        #expect(folder.contents.isEmpty, "left \(folder.contents)")
    }

    /// Issue 29 item 8: a stop before the first usable frame still reports the corrupt
    /// frames the camera sent (it said 0 before).
    @Test func item8_aStopBeforeTheFirstUsableFrameCountsTheCorruptOnes() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let run = try CamrecBinary.start(["--device", "/dev/video0", "--size", "640x480", "--json", folder.path("a.mp4")],
                                         environment: environment("/dev/video0,formats=mjpeg,corrupt=every:1"))
        defer { run.signal(SIGKILL) }
        // The warning about the first corrupt frame comes with the first one held back.
        try #require(run.waitUntil { lines in lines.contains { ($0["message"] as? String ?? "").contains("corrupt frame") } },
                     "\(run.stderrText)")
        run.signal(SIGINT)
        let status = run.wait(timeout: 60)
        // The signal may come after the start timeout on a slow machine: either way the
        // count is there (a result line) or the run gave up with the count in its message.
        let last = try #require(run.jsonLines.last)
        if status == 0 {
            #expect(last["reason"] as? String == "signal")
            #expect((last["corrupt_frames"] as? Int ?? 0) > 0, "\(last)")
        } else {
            #expect(status == 79, "\(run.stderrText)")
            #expect((last["message"] as? String ?? "").contains("corrupt"), "\(last)")
        }
        #expect(folder.contents.isEmpty, "left \(folder.contents)")
    }
}

import Foundation
import Testing

/// `--settle` (the movie starts once auto-exposure has adapted) and the frame rate kept in
/// low light, on the emulated camera, checked with ffprobe and ffmpeg. The camera never
/// loses a frame for want of a buffer (overrun=wait) and times are camera timestamps, so
/// a loaded machine changes nothing here.
@Suite struct SettleAndRateTests {
    func camera(_ extra: String) throws -> [String: String] {
        try VirtualCameraEnvironment.shared().environment(spec: "/dev/video0,formats=yuyv,sizes=640x480@30,overrun=wait" + extra)
    }

    /// dark=45: auto-exposure takes 1.5 s to reach the normal picture. With --settle the
    /// movie starts bright, at 0, and still holds exactly --max-duration of frames.
    @Test func settleStartsTheMovieOnceExposureIsStable() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let settled = folder.path("settled.mp4")
        let result = try CamrecBinary.run(["--settle", "10s", "--max-duration", "2", "--json", settled], environment: camera(",dark=45"))
        #expect(result.status == 0, "\(result.stderr)")
        let lines = JSONLines.parse(result)
        let line = try #require(lines.first { $0["type"] as? String == "settled" }, "\(result.stdoutText)")
        #expect(line["stable"] as? Bool == true)
        let frames = try #require(line["frames"] as? Int)
        #expect(frames >= 45, "\(line)")
        #expect((line["settle_ms"] as? Int ?? 0) >= 1500, "\(line)")
        #expect(lines.firstIndex { $0["type"] as? String == "started" } ?? 99 < lines.firstIndex { $0["type"] as? String == "settled" } ?? 0)
        let probe = try MediaProbe.probe(settled)
        #expect(probe.frames == 60)
        let times = try PictureMeans.frameTimes(settled)
        #expect(times.first == 0, "\(times.prefix(3))")
        let result2 = try #require(lines.last)
        #expect(result2["dropped_frames"] as? Int == 0)
        let first = try PictureMeans.of(settled, frame: 0)
        let last = try PictureMeans.of(settled, frame: 59)
        #expect(abs(first.y - last.y) < 4, "first \(first), last \(last)")

        // Without --settle the same camera's movie starts dark.
        let plain = folder.path("plain.mp4")
        let unsettled = try CamrecBinary.run(["--max-duration", "1", "--json", plain], environment: camera(",dark=45"))
        #expect(unsettled.status == 0, "\(unsettled.stderr)")
        #expect(!JSONLines.parse(unsettled).contains { $0["type"] as? String == "settled" })
        let dark = try PictureMeans.of(plain, frame: 0)
        #expect(dark.y < first.y - 40, "unsettled first frame \(dark), settled \(first)")
    }

    /// A camera that reports its autofocus (V4L2_CID_AUTO_FOCUS_STATUS) searching for its
    /// first 40 frames while the brightness is steady from the start: --settle waits for the
    /// focus; the same camera without the status settles on the brightness alone.
    @Test func settleWaitsForAutofocusWhereTheCameraReportsIt() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let focused = folder.path("focused.mp4")
        let result = try CamrecBinary.run(["--settle", "10s", "--max-duration", "1", "--json", focused], environment: camera(",focusbusy=40"))
        #expect(result.status == 0, "\(result.stderr)")
        let line = try #require(JSONLines.parse(result).first { $0["type"] as? String == "settled" }, "\(result.stdoutText)")
        #expect(line["stable"] as? Bool == true)
        #expect((line["frames"] as? Int ?? 0) >= 40, "\(line)")
        #expect(try MediaProbe.probe(focused).frames == 30)

        let plain = folder.path("plain.mp4")
        let unfocused = try CamrecBinary.run(["--settle", "10s", "--max-duration", "1", "--json", plain], environment: camera(""))
        #expect(unfocused.status == 0, "\(unfocused.stderr)")
        let quick = try #require(JSONLines.parse(unfocused).first { $0["type"] as? String == "settled" }, "\(unfocused.stdoutText)")
        #expect(quick["stable"] as? Bool == true)
        #expect((quick["frames"] as? Int ?? 99) < 40, "\(quick)")
    }

    /// A picture that never settles within --settle: the movie starts at the limit, and
    /// the line says it was not stable.
    @Test func settleEndsAtItsLimit() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let movie = folder.path("movie.mp4")
        let result = try CamrecBinary.run(["--settle", "0.5s", "--max-duration", "1", "--json", movie], environment: camera(",dark=300"))
        #expect(result.status == 0, "\(result.stderr)")
        let line = try #require(JSONLines.parse(result).first { $0["type"] as? String == "settled" })
        #expect(line["stable"] as? Bool == false)
        #expect(line["frames"] as? Int == 15, "\(line)")
        #expect(line["settle_ms"] as? Int == 500, "\(line)")
        #expect(try MediaProbe.probe(movie).frames == 30)
    }

    /// scene=dark: the camera's auto-exposure halves the frame rate when exposure priority
    /// allows it. camrec turns that off by default and records 30 fps; with
    /// exposure-priority=on it gets 15 fps and counts the missing frames as dropped.
    @Test func theFrameRateIsKeptInLowLight() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let kept = folder.path("kept.mp4")
        var result = try CamrecBinary.run(["--max-duration", "2", "--json", kept], environment: camera(",scene=dark"))
        #expect(result.status == 0, "\(result.stderr)")
        var lines = JSONLines.parse(result)
        #expect(lines.last?["dropped_frames"] as? Int == 0)
        #expect(try MediaProbe.probe(kept).frames == 60)
        let keptTimes = try PictureMeans.frameTimes(kept)
        #expect(abs((keptTimes.last ?? 0) - 59.0 / 30) < 0.01, "\(keptTimes.suffix(3))")

        let slowed = folder.path("slowed.mp4")
        result = try CamrecBinary.run(["--max-duration", "2", "--set", "exposure-priority=on", "--json", slowed],
                                      environment: camera(",scene=dark"))
        #expect(result.status == 0, "\(result.stderr)")
        lines = JSONLines.parse(result)
        #expect(lines.contains { ($0["message"] as? String)?.contains("exposure-priority is on") == true })
        let frames = try MediaProbe.probe(slowed).frames
        #expect(frames == 30, "15 fps for 2 s")
        #expect(lines.last?["dropped_frames"] as? Int == 30, "\(lines.last ?? [:])")
        let times = try PictureMeans.frameTimes(slowed)
        let gaps = zip(times.dropFirst(), times).map { $0 - $1 }
        #expect(gaps.allSatisfy { abs($0 - 2.0 / 30) < 0.005 }, "\(gaps.prefix(5))")
        // The slowed camera's picture is as bright as the kept one's: it exposes longer.
        #expect(try PictureMeans.of(slowed, frame: 10).y > PictureMeans.of(kept, frame: 10).y + 10)
    }

    /// A camera whose exposure priority cannot be turned off: a warning before the run.
    @Test func aFixedExposurePriorityIsAWarning() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let result = try CamrecBinary.run(["--max-duration", "0.5", "--json", folder.path("m.mp4")],
                                          environment: camera(",scene=dark,priority=fixed"))
        #expect(result.status == 0, "\(result.stderr)")
        let warning = JSONLines.parse(result).first { $0["type"] as? String == "warning" }
        #expect((warning?["message"] as? String)?.contains("cannot keep the frame rate") == true, "\(result.stdoutText)")
    }
}

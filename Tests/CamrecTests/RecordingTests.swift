import Foundation
import Testing

/// End to end: the built camrec binary records from the test pattern; ffprobe and ffmpeg,
/// not camrec, say what the file holds.
///
/// Serialized: its cases start recordings that count dropped frames and compare the file
/// with what camrec reported; several at once on a loaded 2-core machine would measure the
/// machine, not camrec.
@Suite(.serialized) struct RecordingTests {
    @Test(arguments: ["mp4", "mov", "mkv"])
    func maxDurationGivesExactlyThatManyFrames(container: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let output = folder.path("movie.\(container)")
        let result = try CamrecBinary.run(["--device", "test", "--size", "320x240", "--fps", "30",
                                           "--max-duration", "3", "--json", output])
        #expect(result.status == 0, "\(result.stderr)")
        let probe = try MediaProbe.probe(output)
        #expect(probe.codec == "h264")
        #expect(probe.pixelFormat == "yuv420p")
        #expect((probe.width, probe.height) == (320, 240))
        #expect(abs(probe.frames - 90) <= 1, "ffprobe counted \(probe.frames) frames, want 90 ± 1")
        #expect(try MediaProbe.decodeErrors(output).isEmpty)
        // Only the finished movie is left: no partial file.
        #expect(folder.contents == ["movie.\(container)"])

        let lines = JSONLines.parse(result)
        #expect(lines.first?["type"] as? String == "started")
        let last = try #require(lines.last)
        #expect(last["type"] as? String == "result")
        #expect(last["reason"] as? String == "max-duration")
        #expect(last["dropped_frames"] as? Int == 0)
        let file = try #require((last["files"] as? [[String: Any]])?.first)
        #expect(file["path"] as? String == output)
        #expect(file["kind"] as? String == "movie")
        #expect(file["frames"] as? Int == probe.frames)
        #expect(abs((file["duration"] as? Double ?? 0) - 3) < 0.05)
        #expect(file["bytes"] as? Int == Int(OutputFileSize.of(output)))
    }

    @Test func finishedMP4IsFinalisedNotFragmented() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let output = folder.path("movie.mp4")
        let result = try CamrecBinary.run(["--device", "test", "--size", "320x240", "--max-duration", "2", "-q", output])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty, "--quiet printed: \(result.stderr)")
        let boxes = try MediaProbe.topLevelBoxes(output)
        #expect(boxes.contains("moov"))
        #expect(!boxes.contains("moof"), "a clean stop rewrites the hybrid MP4 into a plain one: \(boxes)")
    }

    @Test(arguments: [SIGINT, SIGTERM, SIGHUP])
    func signalFinalisesTheFile(signal: Int32) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let output = folder.path("movie.mp4")
        let socket = folder.path("control")
        let run = try CamrecBinary.start(["--device", "test", "--size", "320x240", "--max-duration", "none",
                                          "--control", socket, "--json", output])
        // Signal once 60 frames are in the movie (not after a fixed time a loaded machine can outlast).
        try #require(RecordingWait.frames(60, socket: socket), "no 60 frames within 60 s: \(run.stderrText)")
        run.signal(signal)
        #expect(run.wait(timeout: 60) == 0, "\(run.stderrText)")
        let result = try #require(run.jsonLines.last)
        #expect(result["reason"] as? String == "signal")
        let probe = try MediaProbe.probe(output)
        #expect(probe.frames >= 60, "only \(probe.frames) frames, camrec had let 60 in before the signal")
        #expect(try MediaProbe.decodeErrors(output).isEmpty)
        #expect(!(try MediaProbe.topLevelBoxes(output)).contains("moof"))
        #expect(folder.contents == ["movie.mp4"])
    }

    /// A third signal aborts at once (exit 130): the file is not finalised but plays, it
    /// stays under its temporary name (never under OUTPUT: it is not finished), and every
    /// count in the result describes what is in the file, not what entered the encoder
    /// (the muxer had not written the last fragment).
    @Test(arguments: ["mp4", "mkv"])
    func thirdSignalAbortsAndTheResultDescribesTheFile(container: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let output = folder.path("movie.\(container)")
        let socket = folder.path("control")
        let run = try CamrecBinary.start(["--device", "test", "--size", "320x240", "--fps", "30", "--max-duration", "none",
                                          "--control", socket, "--json", output])
        try #require(RecordingWait.frames(75, socket: socket), "\(run.stderrText)")
        // Three different signals while camrec is stopped are all pending when it goes on:
        // they arrive together, however loaded the machine (two SIGINTs would merge into one).
        run.signal(SIGSTOP)
        run.signal(SIGINT)
        run.signal(SIGTERM)
        run.signal(SIGHUP)
        run.signal(SIGCONT)
        #expect(run.wait() == 130, "\(run.stderrText)")
        let result = try #require(run.jsonLines.last)
        #expect(result["reason"] as? String == "aborted")
        let file = try #require((result["files"] as? [[String: Any]])?.first)
        let partial = try #require(run.lines(type: "started").first?["partial_path"] as? String)
        #expect(file["path"] as? String == partial, "an aborted movie is not published under OUTPUT")
        #expect(!FileManager.default.fileExists(atPath: output), "nothing unfinished under the final name")
        #expect((result["message"] as? String ?? "").contains("camrec recover \(partial)"), "\(result)")
        let probe = try MediaProbe.probe(partial)
        #expect(probe.frames >= 30, "only \(probe.frames) frames after 2.5 s")
        #expect(file["frames"] as? Int == probe.frames, "the result says \(file["frames"] ?? "nil"), the file holds \(probe.frames)")
        let duration = try #require(file["duration"] as? Double)
        #expect(abs(duration - Double(probe.frames) / 30) < 0.002, "the result says \(duration) s for \(probe.frames) frames")
        #expect(file["bytes"] as? Int == Int(OutputFileSize.of(partial)))
        #expect(try MediaProbe.decodeErrors(partial).isEmpty)
        #expect(folder.contents == [URL(fileURLWithPath: partial).lastPathComponent])
    }

    /// Issue 29 item 3: GNU `timeout`, systemd and a shell's job control send SIGTERM to
    /// camrec and then to its whole process group. Two stop signals that arrive together
    /// (made certain here by stopping camrec while they are sent) stop and finalise: exit
    /// 0, the movie finalised under OUTPUT.
    @Test(arguments: ["mp4", "mkv"])
    func item3_twoSignalsAtOnceFinalise(container: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let output = folder.path("movie.\(container)")
        let socket = folder.path("control")
        let run = try CamrecBinary.start(["--device", "test", "--size", "320x240", "--fps", "30", "--max-duration", "none",
                                          "--control", socket, "--json", output])
        try #require(RecordingWait.frames(45, socket: socket), "\(run.stderrText)")
        run.signal(SIGSTOP)
        run.signal(SIGTERM)
        run.signal(SIGINT)
        run.signal(SIGCONT)
        #expect(run.wait() == 0, "\(run.stderrText)")
        let result = try #require(run.jsonLines.last)
        #expect(result["reason"] as? String == "signal")
        let probe = try MediaProbe.probe(output)
        #expect(probe.frames >= 45)
        #expect(try MediaProbe.decodeErrors(output).isEmpty)
        if container == "mp4" {
            #expect(!(try MediaProbe.topLevelBoxes(output)).contains("moof"), "finalised, not kept as written")
        }
    }

    /// Issue 29 item 3, with the real wrapper: `timeout` signals camrec and then its process
    /// group. Whenever it fires, camrec finalises (exit 0, reason `signal`), never aborts.
    @Test func item3_gnuTimeoutFinalises() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let output = folder.path("movie.mp4")
        let result = try ChildProcess.run("/usr/bin/timeout", ["--preserve-status", "4", CamrecBinary.url.path,
                                                               "--device", "test", "--size", "320x240", "--max-duration", "none",
                                                               "--json", output], timeout: 60)
        JSONLog.record(arguments: ["--device", "test", "--size", "320x240", "--max-duration", "none", "--json", output],
                       stdout: result.stdout)
        #expect(result.status == 0, "\(result.stderr)")
        let last = try #require(JSONLines.parse(result).last)
        #expect(last["reason"] as? String == "signal", "\(last)")
        for file in last["files"] as? [[String: Any]] ?? [] {
            #expect(file["path"] as? String == output)
            #expect(!(try MediaProbe.topLevelBoxes(output)).contains("moof"), "finalised, not kept as written")
        }
        #expect(!folder.contents.contains { $0.contains(".partial") }, "\(folder.contents)")
    }

    /// kill -9 leaves the partial file; it plays, with at most about a second lost: the
    /// file holds all but about a second of the frames camrec said (`ctl status`, just
    /// before the kill) it had let into the movie. Comparing with the frames camrec counted,
    /// not with wall-clock time, keeps a slow start or a stalled machine out of it.
    @Test(arguments: ["mp4", "mkv"])
    func killNineLeavesAPlayableFile(container: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let output = folder.path("movie.\(container)")
        let socket = folder.path("control")
        let run = try CamrecBinary.start(["--device", "test", "--size", "320x240", "--fps", "30", "--max-duration", "none",
                                          "--control", socket, "--json", output])
        try #require(RecordingWait.frames(120, socket: socket), "no 120 frames within 60 s: \(run.stderrText)")
        let reported = try #require(RecordingWait.currentFrames(socket: socket), "no status: \(run.stderrText)")
        run.signal(SIGKILL)
        #expect(run.wait(timeout: 60) == -SIGKILL)
        let partial = try #require(run.lines(type: "started").first?["partial_path"] as? String)
        #expect(!FileManager.default.fileExists(atPath: output), "nothing under the final name after a crash")
        let probe = try MediaProbe.probe(partial)
        #expect(probe.codec == "h264")
        // A fragment (MP4) or cluster (Matroska) a second long may be lost, and a little more
        // that was on its way to the file.
        #expect(probe.frames >= reported - 48,
                "only \(probe.frames) frames playable; camrec had let \(reported) into the movie before the kill")
        #expect(try MediaProbe.decodeErrors(partial).isEmpty)
    }

    @Test func printedPipelineRecordsTheSameKindOfFileWithGstLaunch() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let output = folder.path("by hand.mp4")
        let printed = try CamrecBinary.run(["--device", "test", "--size", "320x240", "--print-pipeline", output])
        #expect(printed.status == 0)
        let line = printed.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(line.hasPrefix("gst-launch-1.0 -e "))
        #expect(folder.contents.isEmpty, "--print-pipeline creates nothing")
        // Run it through a shell as a person would, and stop it with SIGINT (-e: EOS first)
        // once it has written its first fragment (a second of video), not after a fixed time.
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        shell.arguments = ChildProcess.cleanSignals + ["/bin/sh", "-c", "exec " + line + " >/dev/null"]
        shell.standardInput = FileHandle.nullDevice
        shell.standardError = FileHandle.nullDevice
        let exited = DispatchSemaphore(value: 0)
        shell.terminationHandler = { _ in exited.signal() }
        try shell.run()
        let fragment = Wait.until(timeout: 60) { (try? MediaProbe.topLevelBoxes(output))?.contains("moof") == true }
        kill(shell.processIdentifier, SIGINT)
        if exited.wait(timeout: .now() + 60) == .timedOut {
            kill(shell.processIdentifier, SIGKILL)
            exited.wait()
            Issue.record("gst-launch did not finish within 60 s of SIGINT")
        }
        try #require(fragment, "gst-launch wrote no fragment within 60 s")
        #expect(shell.terminationStatus == 0)
        let probe = try MediaProbe.probe(output)
        #expect(probe.codec == "h264")
        #expect(probe.pixelFormat == "yuv420p")
        #expect(probe.frames > 10)
    }

    @Test func forceReplacesAnExistingFile() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let output = folder.path("movie.mkv")
        try Data("old".utf8).write(to: URL(fileURLWithPath: output))
        let result = try CamrecBinary.run(["--device", "test", "--size", "320x240", "--max-duration", "1", "--force", output])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try MediaProbe.probe(output).frames == 30)
    }
}

enum OutputFileSize {
    static func of(_ path: String) -> Int64 {
        ((try? FileManager.default.attributesOfItem(atPath: path)[.size]) as? NSNumber)?.int64Value ?? -1
    }
}

/// A tmpfs of a few hundred KB to fill (tests run as root, as CI does).
enum SmallDisk {
    /// Mounts one of `size` (e.g. "400k") at a new folder "small" in `folder`; returns its path.
    static func mount(size: String, in folder: TemporaryFolder) throws -> String {
        let small = folder.path("small")
        try FileManager.default.createDirectory(atPath: small, withIntermediateDirectories: false)
        let mount = try ChildProcess.run("mount", ["-t", "tmpfs", "-o", "size=\(size)", "tmpfs", small])
        guard mount.status == 0 else {
            throw MediaProbe.Failure(description: "cannot mount a small tmpfs to fill: \(mount.stderr)")
        }
        return small
    }

    static func unmount(_ path: String) {
        _ = try? ChildProcess.run("umount", [path])
    }
}

/// A full disk: the recording so far is kept, plays, and the exit code says so.
@Suite struct DiskFullTests {
    @Test(arguments: ["mp4", "mkv"])
    func fullDiskKeepsAPlayableRecording(container: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // A 400 KB tmpfs (tests run as root, as CI does).
        let small = try SmallDisk.mount(size: "400k", in: folder)
        defer { SmallDisk.unmount(small) }
        let output = small + "/full.\(container)"
        let result = try CamrecBinary.run(["--device", "test", "--size", "640x480", "--max-duration", "30", "--json", output])
        #expect(result.status == 74, "\(result.stderr)")
        let last = try #require(JSONLines.parse(result).last)
        #expect(last["reason"] as? String == "disk-full")
        #expect(result.stderr.contains("disk full"))
        let probe = try MediaProbe.probe(output)
        #expect(probe.codec == "h264" && probe.frames > 30, "\(probe.frames) frames kept")
        // The result describes the file (the last fragment could not be written).
        let file = try #require((last["files"] as? [[String: Any]])?.first)
        #expect(file["frames"] as? Int == probe.frames, "the result says \(file["frames"] ?? "nil"), the file holds \(probe.frames)")
        #expect(file["bytes"] as? Int == Int(OutputFileSize.of(output)))
        #expect(try MediaProbe.decodeErrors(output).isEmpty)
    }

    /// Once the disk is full, a new recording cannot write anything: no empty or
    /// unplayable file is left under OUTPUT (or anywhere), and exit 74 says why.
    @Test(arguments: ["mp4", "mkv"])
    func alreadyFullDiskLeavesNoFile(container: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let small = folder.path("small")
        try FileManager.default.createDirectory(atPath: small, withIntermediateDirectories: false)
        let mount = try ChildProcess.run("mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", small])
        try #require(mount.status == 0, "cannot mount a small tmpfs to fill: \(mount.stderr)")
        defer { _ = try? ChildProcess.run("umount", [small]) }
        // Fill it up, leaving room for nothing but the file's name.
        _ = try ChildProcess.run("/bin/sh", ["-c", "head -c 1M /dev/zero > '\(small)/filler'"])
        let output = small + "/full.\(container)"
        let result = try CamrecBinary.run(["--device", "test", "--size", "640x480", "--max-duration", "5", "--json", output])
        #expect(result.status == 74, "\(result.stderr)")
        let last = try #require(JSONLines.parse(result).last)
        #expect(last["reason"] as? String == "disk-full")
        #expect((last["files"] as? [Any])?.isEmpty == true)
        #expect(result.stderr.contains("disk full"))
        let left = try FileManager.default.contentsOfDirectory(atPath: small)
        #expect(left == ["filler"], "left \(left)")
    }
}

@Suite struct KeyframeIntervalTests {
    @Test func keyframeIntervalSetsTheGOP() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let output = folder.path("gop.mkv")
        let result = try CamrecBinary.run(["--device", "test", "--size", "320x240", "--fps", "30", "--max-duration", "3",
                                           "--keyframe-interval", "0.5", output])
        #expect(result.status == 0, "\(result.stderr)")
        let packets = try ChildProcess.run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=flags",
                                                       "-of", "csv=p=0", output])
        let keyframes = packets.stdoutText.split(separator: "\n").enumerated().filter { $0.element.hasPrefix("K") }.map(\.offset)
        // At most 15 frames (0.5 s at 30 fps) from one keyframe to the next.
        #expect(keyframes.first == 0)
        #expect(zip(keyframes, keyframes.dropFirst()).allSatisfy { $1 - $0 <= 15 }, "keyframes at \(keyframes)")
        #expect(keyframes.count >= 6, "keyframes at \(keyframes)")
        let bad = try CamrecBinary.run(["--device", "test", "--keyframe-interval", "0", output])
        #expect(bad.status == 64)
    }
}

import Foundation
import Testing

/// `--segment` end to end: exact lengths and counts, frames neither lost nor doubled at a
/// cut (the emulated camera's frame stamps run on from one movie to the next), names,
/// `ctl split`, and retention. ffprobe says what each movie holds.
@Suite(.serialized) struct SegmentTests {
    /// What ffprobe says about one segment: frames, first frame time, first packet a keyframe.
    struct Segment {
        var frames: Int
        var start: Double
        var startsWithKeyframe: Bool
        var cleanDecode: Bool
    }

    func inspect(_ path: String) throws -> Segment {
        let probe = try MediaProbe.probe(path)
        let packets = try ChildProcess.run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries",
                                                        "packet=pts_time,flags", "-of", "csv=p=0", path])
        let first = String(decoding: packets.stdout, as: UTF8.self).split(separator: "\n").first ?? ""
        let fields = first.split(separator: ",")
        return Segment(frames: probe.frames, start: Double(fields.first ?? "") ?? -1,
                       startsWithKeyframe: fields.count > 1 && fields[1].hasPrefix("K"),
                       cleanDecode: try MediaProbe.decodeErrors(path).isEmpty)
    }

    func cameraEnvironment(_ spec: String = "/dev/video0,formats=yuyv,sizes=320x240@30") throws -> [String: String] {
        var environment = try VirtualCameraEnvironment.shared().environment(spec: spec)
        environment["CAMREC_DEVICE_PATHS"] = nil
        return environment
    }

    @Test(arguments: [(1.0, 3.5, [30, 30, 30, 15]), (1.3, 4.0, [39, 39, 39, 3]), (2.0, 4.0, [60, 60])])
    func segmentsHoldExactlyTheirLengthAndAddUpToTheRun(_ length: Double, _ limit: Double, _ want: [Int]) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let result = try CamrecBinary.run(["--device", "test", "--size", "320x240", "--fps", "30", "-t", "\(limit)",
                                           "--segment", "\(length)", "--json", folder.path("run.mp4")])
        #expect(result.status == 0, "\(result.stderr)")
        let names = (1...want.count).map { String(format: "run-%04d.mp4", $0) }
        #expect(folder.contents == names)
        for (name, frames) in zip(names, want) {
            let segment = try inspect(folder.path(name))
            #expect(segment.frames == frames, "\(name)")
            #expect(segment.start == 0, "\(name) starts at \(segment.start)")
            #expect(segment.startsWithKeyframe, "\(name)")
            #expect(segment.cleanDecode, "\(name)")
        }
        // One `segment` line per movie, in order, and the same movies in the result.
        let lines = JSONLines.parse(result)
        let segments = lines.filter { $0["type"] as? String == "segment" }
        #expect(segments.map { $0["index"] as? Int } == Array(1...want.count).map { Optional($0) })
        #expect(segments.map { $0["frames"] as? Int } == want.map { Optional($0) })
        #expect(segments.map { ($0["path"] as? String).map { ($0 as NSString).lastPathComponent } } == names.map { Optional($0) })
        for line in segments {
            let start = line["start"] as? String ?? ""
            #expect(ISO8601DateFormatter().date(from: start.replacingOccurrences(of: #"\.\d+"#, with: "", options: .regularExpression)) != nil, "\(start)")
            #expect((line["bytes"] as? Int ?? 0) > 0)
        }
        let movies = (lines.last?["files"] as? [[String: Any]] ?? []).filter { $0["kind"] as? String == "movie" }
        #expect(movies.map { $0["frames"] as? Int } == want.map { Optional($0) })
    }

    @Test(arguments: ["mp4", "mkv"])
    func cameraFramesRunOnAcrossEveryCut(_ ext: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let result = try CamrecBinary.run(["--device", "/dev/video0", "--size", "320x240", "--fps", "30", "-t", "3",
                                           "--segment", "0.5", "--json", folder.path("cam.\(ext)")],
                                          environment: try cameraEnvironment())
        #expect(result.status == 0, "\(result.stderr)")
        let names = folder.contents
        #expect(names.count == 6, "\(names)")
        var stamps: [UInt32] = []
        for name in names {
            let movie = try FrameStampReader.sequences(inVideo: URL(fileURLWithPath: folder.path(name)))
            #expect(movie.allSatisfy { $0 != nil }, "unreadable stamps in \(name): \(movie)")
            stamps += movie.compactMap { $0 }
        }
        let dropped = JSONLines.parse(result).last?["dropped_frames"] as? Int ?? -1
        // Every camera frame once, in order, across all the movies.
        #expect(zip(stamps, stamps.dropFirst()).allSatisfy { $1 > $0 }, "\(stamps)")
        if dropped == 0, let first = stamps.first, let last = stamps.last {
            #expect(Int(last - first) + 1 == stamps.count, "a gap or a doubled frame: \(stamps)")
            #expect(stamps.count == 90)
        }
    }

    @Test func timeFieldsAndCountersNameTheMoviesAndStillsGoBesideThem() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let result = try CamrecBinary.run(["--device", "test", "--size", "320x240", "-t", "2", "--segment", "1",
                                           "--utc", "--still-every", "1.5", "--json", folder.path("cam-%Y%m%d-%H%M%S-%02d.mkv")])
        #expect(result.status == 0, "\(result.stderr)")
        let movies = folder.contents.filter { $0.hasSuffix(".mkv") }
        #expect(movies.count == 2, "\(folder.contents)")
        let pattern = #"^cam-\d{8}-\d{6}-0[12]\.mkv$"#
        #expect(movies.allSatisfy { $0.range(of: pattern, options: .regularExpression) != nil }, "\(movies)")
        let year = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC")!, from: Date()).year ?? 0
        #expect(movies.allSatisfy { $0.hasPrefix("cam-\(year)") })
        #expect(folder.contents.contains("cam-still-0001.jpg"), "\(folder.contents)")
        // The still at 1.5 s is frame 15 of the second movie, and says so.
        let still = try #require(JSONLines.parse(result).first { $0["type"] as? String == "still" })
        let movie = try #require(still["movie"] as? String)
        #expect((movie as NSString).lastPathComponent == movies.sorted()[1], "\(still)")
        #expect(still["frame"] as? Int == 15, "\(still)")
    }

    @Test func aSecondRunContinuesTheCounterAndNeverReplacesAMovie() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        for _ in 0..<2 {
            let result = try CamrecBinary.run(["--device", "test", "--size", "320x240", "-t", "1", "--segment", "0.5",
                                               "-q", folder.path("run.mp4")])
            #expect(result.status == 0, "\(result.stderr)")
        }
        #expect(folder.contents == ["run-0001.mp4", "run-0002.mp4", "run-0003.mp4", "run-0004.mp4"])
        // A name taken by a time field gets -2 rather than replace the file.
        let first = try CamrecBinary.run(["--device", "test", "--size", "320x240", "-t", "0.2", "--segment", "1",
                                          "-q", folder.path("day-%Y.mp4")])
        #expect(first.status == 0, "\(first.stderr)")
        let second = try CamrecBinary.run(["--device", "test", "--size", "320x240", "-t", "0.2", "--segment", "1",
                                           "-q", folder.path("day-%Y.mp4")])
        #expect(second.status == 0, "\(second.stderr)")
        let days = folder.contents.filter { $0.hasPrefix("day-") }
        #expect(days.count == 2 && days.contains { $0.hasSuffix("-2.mp4") }, "\(days)")
    }

    @Test func ctlSplitStartsTheNextMovieAtOnceAndStatusNamesIt() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let socket = folder.path("ctl.sock")
        let camrec = try CamrecBinary.start(["--device", "test", "--size", "320x240", "-t", "none", "--segment", "none",
                                             "--control", socket, "--json", folder.path("s.mp4")])
        defer { if camrec.process.isRunning { camrec.signal(SIGKILL) } }
        #expect(RecordingWait.frames(10, socket: socket))
        let status = RecordingWait.status(socket: socket)
        #expect(status?["segment"] as? Int == 1)
        #expect((status?["path"] as? String)?.hasSuffix("s-0001.mp4") == true, "\(String(describing: status))")
        let split = try CamrecBinary.run(["ctl", socket, "split"])
        #expect(split.status == 0, "\(split.stderr)")
        #expect(camrec.waitForLine(type: "segment"))
        #expect(RecordingWait.status(socket: socket)?["segment"] as? Int == 2)
        let frames = RecordingWait.currentFrames(socket: socket) ?? 0
        #expect(RecordingWait.frames(frames + 10, socket: socket))
        RecordingWait.stop(socket: socket)
        #expect(camrec.wait() == 0, "\(camrec.stderrText)")
        let segments = camrec.lines(type: "segment")
        #expect(segments.count == 2)
        let total = segments.compactMap { $0["frames"] as? Int }.reduce(0, +)
        let probed = try folder.contents.filter { $0.hasSuffix(".mp4") }.map { try MediaProbe.probe(folder.path($0)).frames }
        #expect(probed.reduce(0, +) == total)
        // Without segments, split is refused with a reason.
        let plain = try CamrecBinary.start(["--device", "test", "--size", "320x240", "-t", "none",
                                            "--control", socket + "2", folder.path("plain.mp4")])
        defer { if plain.process.isRunning { plain.signal(SIGKILL) } }
        #expect(RecordingWait.frames(1, socket: socket + "2"))
        let refused = try CamrecBinary.run(["ctl", socket + "2", "split"])
        #expect(refused.status == 1)
        #expect(String(decoding: refused.stdout + refused.stderr.utf8, as: UTF8.self).contains("--segment"), "\(refused)")
        RecordingWait.stop(socket: socket + "2")
        #expect(plain.wait() == 0)
    }

    @Test func keepDeletesOnlyTheOldestMoviesOfTheRunsOwnPattern() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // An earlier run's movies (older), and files that only look alike.
        let others = ["cam-0001.mkv", "cam.mp4", "cam-still-0001.jpg", "camx-0001.mp4", "notes.txt", "cam-0002.partial.mp4"]
        for name in ["cam-0001.mp4", "cam-0002.mp4"] + others {
            FileManager.default.createFile(atPath: folder.path(name), contents: Data([1, 2, 3]),
                                           attributes: [.modificationDate: Date(timeIntervalSinceNow: -3600)])
        }
        let result = try CamrecBinary.run(["--device", "test", "--size", "320x240", "-t", "2", "--segment", "0.5",
                                           "--keep", "3", "--json", folder.path("cam.mp4")])
        #expect(result.status == 0, "\(result.stderr)")
        // The counter went on after the earlier run's 0002 (and the stale partial's 0002).
        let kept = folder.contents.filter { $0.range(of: #"^cam-\d{4}\.mp4$"#, options: .regularExpression) != nil }
        #expect(kept == ["cam-0004.mp4", "cam-0005.mp4", "cam-0006.mp4"], "\(folder.contents)")
        for name in others { #expect(folder.contents.contains(name), "\(name) was deleted") }
        let deleted = JSONLines.parse(result).filter { $0["type"] as? String == "deleted" }
        #expect(deleted.compactMap { ($0["path"] as? String).map { ($0 as NSString).lastPathComponent } }
                == ["cam-0001.mp4", "cam-0002.mp4", "cam-0003.mp4"])
        #expect(deleted.allSatisfy { $0["rule"] as? String == "keep" })
    }

    @Test func keepSizeBoundsTheTotal() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let result = try CamrecBinary.run(["--device", "test", "--size", "320x240", "-t", "3", "--segment", "0.5",
                                           "--keep-size", "30K", "--json", folder.path("k.mkv")])
        #expect(result.status == 0, "\(result.stderr)")
        let sizes = folder.contents.map { (try? FileManager.default.attributesOfItem(atPath: folder.path($0))[.size] as? Int) ?? 0 }
        #expect(sizes.reduce(0, +) <= 30 * 1024, "\(folder.contents) \(sizes)")
        #expect(!folder.contents.isEmpty)
        #expect(folder.contents.last == "k-0006.mkv")
        #expect(JSONLines.parse(result).contains { $0["type"] as? String == "deleted" && $0["rule"] as? String == "keep-size" })
    }

    @Test func minFreeDeletesTheOldestAndStopsAsDiskFullWhenNothingIsLeft() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let small = folder.path("small")
        try FileManager.default.createDirectory(atPath: small, withIntermediateDirectories: true)
        let mount = try ChildProcess.run("mount", ["-t", "tmpfs", "-o", "size=2m", "tmpfs", small])
        try #require(mount.status == 0, "cannot mount a small tmpfs: \(mount.stderr)")
        defer { _ = try? ChildProcess.run("umount", [small]) }
        // 1.5 MB free of 2 MB: the oldest movies go to keep that free; the run goes on.
        let kept = try CamrecBinary.run(["--device", "test", "--size", "1280x720", "-t", "4", "--segment", "0.5",
                                         "--min-free", "1.5M", "--json", small + "/m.mp4"])
        #expect(kept.status == 0, "\(kept.stderr)")
        let lines = JSONLines.parse(kept)
        #expect(lines.contains { $0["type"] as? String == "deleted" && $0["rule"] as? String == "min-free" }, "\(lines)")
        #expect(lines.last?["reason"] as? String == "max-duration")
        // Asking for more free space than the file system has: nothing to delete, so the
        // run finalises what it has and stops with disk-full, leaving only playable movies.
        let full = try CamrecBinary.run(["--device", "test", "--size", "320x240", "-t", "none", "--segment", "0.5",
                                         "--min-free", "3M", "--json", small + "/f.mp4"])
        #expect(full.status == 74, "\(full.stderr)")
        let result = try #require(JSONLines.parse(full).last)
        #expect(result["reason"] as? String == "disk-full")
        let names = try FileManager.default.contentsOfDirectory(atPath: small).filter { $0.hasPrefix("f-") }
        #expect(!names.isEmpty)
        for name in names {
            #expect(!name.contains(".partial"), "\(names)")
            #expect(try MediaProbe.probe(small + "/" + name).frames > 0)
        }
    }

    @Test func optionsThatNeedSegmentsSaySo() throws {
        for arguments in [["--keep", "3"], ["--keep-size", "1G"], ["--min-free", "1G"], ["--utc"], ["--reconnect-timeout", "5"]] {
            let result = try CamrecBinary.run(["--device", "test"] + arguments + ["x.mp4"])
            #expect(result.status == 64, "\(arguments)")
            #expect(result.stderr.contains("--segment") || result.stderr.contains("--reconnect"), "\(result.stderr)")
        }
        for arguments in [["--segment", "0"], ["--segment", "abc"], ["--segment", "1", "--keep", "0"],
                          ["--segment", "1", "--keep-size", "lots"], ["--segment", "1", "x-%04d-%04d.mp4"]] {
            let output = arguments.last?.hasSuffix(".mp4") == true ? [] : ["x.mp4"]
            let result = try CamrecBinary.run(["--device", "test"] + arguments + output)
            #expect(result.status == 64, "\(arguments): \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        }
    }
}

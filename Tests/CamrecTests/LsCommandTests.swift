import Foundation
import Testing

/// `camrec ls` on what camrec records: a segmented run with a Live Photo clip and stills,
/// then a killed run of the same OUTPUT, listed with --json; every file's start against the
/// recording's own JSON lines, frames against ffprobe, the unfinished mark with its
/// recover command, the gap between the runs; and the errors for a missing or empty folder.
@Suite("camrec ls")
struct LsCommandTests {
    static func milliseconds(_ text: String?) -> Int64? {
        guard let text, let seconds = CaptureTimeTests.seconds(text) else { return nil }
        return Int64((seconds * 1000).rounded())
    }

    static func probeFrames(_ path: String) throws -> Int? {
        let run = try ChildProcess.run("ffprobe", ["-v", "error", "-count_frames", "-select_streams", "v:0",
                                                   "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0", path])
        return Int(run.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    @Test func listsARecordedFolder() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let output = folder.path("cam.mp4")
        let socket = folder.path("control")
        // A segmented run of 3.5 s with a Live Photo (a clip and its still).
        let run = try CamrecBinary.start(["--device", "test", "--size", "320x240", "--fps", "30", "-t", "3.5", "--segment", "1",
                                          "--pre-roll", "0.5s", "--post-roll", "0.5s", "--control", socket, "--json", output])
        defer { run.signal(SIGKILL) }
        try #require(RecordingWait.frames(20, socket: socket), "\(run.stderrText)")
        let reply = try CamrecBinary.run(["ctl", socket, "clip", "--still"], timeout: 30)
        #expect(reply.status == 0, "\(reply.stdoutText) \(reply.stderr)")
        #expect(run.wait() == 0, "\(run.stderrText)")
        let segments = run.lines(type: "segment")
        #expect(segments.count == 4, "\(run.jsonLines)")
        let clipLine = try #require(run.lines(type: "clip").first, "\(run.jsonLines)")
        // A second run of the same OUTPUT, killed: it leaves a .partial file. Its start comes
        // from its movie header (whole seconds): 1.5 s later, the gap shows whatever the second.
        Thread.sleep(forTimeInterval: 1.5)
        let killed = try CamrecBinary.start(["--device", "test", "--size", "320x240", "--fps", "30", "-t", "none",
                                             "--segment", "10", "--json", output])
        let partial = { (try? FileManager.default.contentsOfDirectory(atPath: folder.url.path))?.first { $0.contains(".partial.") } }
        #expect(killed.waitUntil { _ in
            partial().map { ((try? FileManager.default.attributesOfItem(atPath: folder.path($0)))?[.size] as? Int ?? 0) > 40_000 } ?? false
        })
        killed.signal(SIGKILL)
        _ = killed.wait()
        try Data("notes".utf8).write(to: folder.url.appendingPathComponent("notes.txt"))

        let listing = try CamrecBinary.run(["ls", "--json", folder.url.path])
        #expect(listing.status == 0, "\(listing.stderr)")
        let lines = JSONLines.parse(listing)
        let files = lines.filter { $0["type"] as? String == "library-file" }
        var byPath: [String: [String: Any]] = [:]
        for line in files { if let path = line["path"] as? String { byPath[path] = line } }
        // Every file of the folder (but the socket, not a regular file) has its line.
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0 != "control" }
        #expect(Set(byPath.keys) == Set(names.map { folder.path($0) }), "\(byPath.keys) against \(names)")
        for segment in segments {
            let path = try #require(segment["path"] as? String)
            let line = try #require(byPath[path], "\(path) not listed")
            #expect(line["kind"] as? String == "movie" && line["health"] as? String == "complete", "\(line)")
            #expect(line["series"] as? String == "cam")
            #expect(line["start_source"] as? String == "capture-time")
            #expect(Self.milliseconds(line["start"] as? String) == Self.milliseconds(segment["start"] as? String), "\(line) against \(segment)")
            let probed = try Self.probeFrames(path)
            #expect(line["frames"] as? Int == probed, "\(line)")
            #expect(line["video_codec"] as? String == "h264" && line["width"] as? Int == 320 && line["sound"] as? String == "none")
            #expect(line["bytes"] as? Int == segment["bytes"] as? Int)
        }
        let clipPath = try #require(clipLine["path"] as? String)
        let clip = try #require(byPath[clipPath])
        #expect(clip["kind"] as? String == "clip" && clip["health"] as? String == "complete" && clip["series"] as? String == "cam")
        let clipFrames = try Self.probeFrames(clipPath)
        #expect(clip["frames"] as? Int == clipFrames, "\(clip)")
        let stillPath = try #require(clipLine["still"] as? String)
        #expect(byPath[stillPath]?["kind"] as? String == "still")
        let partialPath = folder.path(try #require(partial()))
        let unfinished = try #require(byPath[partialPath])
        #expect(unfinished["health"] as? String == "unfinished", "\(unfinished)")
        #expect(unfinished["recover"] as? String == "camrec recover " + partialPath)
        #expect((unfinished["frames"] as? Int ?? 0) > 0, "\(unfinished)")
        #expect(byPath[folder.path("notes.txt")]?["kind"] as? String == "foreign")

        let series = try #require(lines.first { $0["type"] as? String == "library-series" }, "\(lines)")
        #expect(series["name"] as? String == "cam")
        #expect(series["movies"] as? Int == 5)
        #expect(series["runs"] as? Int == 2, "the killed run came after a gap: \(series)")
        let photos = try #require(series["live_photos"] as? [[String: Any]])
        #expect(photos.count == 1 && photos.first?["clip"] as? String == clipPath && photos.first?["still"] as? String == stillPath, "\(series)")

        // For people: a table, and the command that finishes the unfinished movie.
        let table = try CamrecBinary.run(["ls", folder.url.path])
        #expect(table.status == 0 && table.stdoutText.contains("unfinished: camrec recover " + partialPath), "\(table.stdoutText)")
        // The OUTPUT as a pattern lists the same recordings, without the foreign file.
        let pattern = try CamrecBinary.run(["ls", "--json", output])
        #expect(JSONLines.parse(pattern).filter { $0["type"] as? String == "library-file" }.count == files.count - 1)
    }

    @Test func aRecordingInProgressIsNotToBeRecovered() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let recording = try CamrecBinary.start(["--device", "test", "--size", "320x240", "-t", "none", "--json", folder.path("live.mp4")])
        defer { recording.signal(SIGKILL) }
        let partial = folder.path("live.partial.mp4")
        #expect(recording.waitUntil { _ in ((try? FileManager.default.attributesOfItem(atPath: partial))?[.size] as? Int ?? 0) > 20_000 })
        let listing = try CamrecBinary.run(["ls", "--json", folder.url.path])
        #expect(listing.status == 0, "\(listing.stderr)")
        let line = try #require(JSONLines.parse(listing).first { $0["path"] as? String == partial }, "\(listing.stdoutText)")
        #expect(line["health"] as? String == "unfinished" && line["recover"] == nil, "\(line)")
        #expect((line["note"] as? String)?.contains("being written by process \(recording.pid)") == true, "\(line)")
        recording.signal(SIGINT)
        #expect(recording.wait() == 0)
    }

    /// A run killed early in a segment, then `camrec recover`: the recovered movie holds a
    /// capture time (the partial file's birth, within a few ms of its first frame's capture,
    /// as exiftool/ffprobe read it back) and belongs to the series; the partial file is
    /// shown as recovered already, not to be recovered again.
    @Test func aRecoveredSegmentTakesItsPlaceInTheSeries() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let run = try CamrecBinary.start(["--device", "test", "--size", "320x240", "--fps", "30", "-t", "none", "--segment", "2",
                                          "--json", folder.path("cam.mp4")])
        defer { run.signal(SIGKILL) }
        // The first segment's line: the second has begun.
        try #require(run.waitForLine(type: "segment"), "\(run.stderrText)")
        run.signal(SIGKILL)
        _ = run.wait(timeout: 60)
        let first = try #require(run.lines(type: "segment").first)
        let firstStart = try #require(CaptureTimeTests.seconds(first["start"] as? String ?? ""), "\(first)")
        let firstEnd = firstStart + (first["duration"] as? Double ?? 0)
        let partial = folder.path("cam-0002.partial.mp4")
        #expect(FileManager.default.fileExists(atPath: partial), "\(folder.contents)")
        let recovered = try CamrecBinary.run(["recover", "--json", partial])
        #expect(recovered.status == 0, "\(recovered.stderr)")
        let output = try #require(JSONLines.parse(recovered).compactMap { $0["output"] as? String }.first, "\(recovered.stdoutText)")
        let stamp = try #require(try CaptureTimeTests.embedded(output), "no capture time in \(output)")
        #expect(abs(stamp.seconds - firstEnd) < 0.1, "\(stamp.text) against the first segment's end \(firstEnd)")

        let listing = try CamrecBinary.run(["ls", "--json", folder.url.path])
        #expect(listing.status == 0, "\(listing.stderr)")
        let lines = JSONLines.parse(listing)
        let movie = try #require(lines.first { $0["path"] as? String == output }, "\(listing.stdoutText)")
        #expect(movie["series"] as? String == "cam" && movie["health"] as? String == "complete", "\(movie)")
        #expect(movie["start_source"] as? String == "capture-time", "\(movie)")
        let left = try #require(lines.first { $0["path"] as? String == partial }, "\(listing.stdoutText)")
        #expect(left["recover"] == nil && left["recovered_as"] as? String == output, "\(left)")
    }

    @Test func aMissingOrEmptyFolderIsAnError() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let empty = try CamrecBinary.run(["ls", folder.url.path])
        #expect(empty.status == 66 && empty.stderr.contains("holds no files"), "\(empty.stderr)")
        let missing = try CamrecBinary.run(["ls", "--json", folder.path("nowhere")])
        #expect(missing.status == 66 && missing.stderr.contains("no such folder"), "\(missing.stderr)")
        #expect(JSONLines.parse(missing).first?["type"] as? String == "error")
        let pattern = try CamrecBinary.run(["ls", folder.path("cam-%Y%m%d.mp4")])
        #expect(pattern.status == 66 && pattern.stderr.contains("no recordings match"), "\(pattern.stderr)")
    }

    /// `--thumbs`: a 160-pixel JPEG per movie, of its keyframe nearest the middle (by
    /// ffprobe's flags and the emulated camera's stamp), reused on
    /// the next listing, made again when the movie is newer.
    @Test func thumbsAreMadeOnceAndShowTheMovie() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var environment = try VirtualCameraEnvironment.shared().environment(spec: "/dev/video0,formats=yuyv,sizes=640x480@30")
        environment["CAMREC_DEVICE_PATHS"] = nil
        let record = try CamrecBinary.run(["--device", "/dev/video0", "--size", "640x480", "-t", "2", "--segment", "1", "--json",
                                           folder.path("cam.mp4")], environment: environment)
        #expect(record.status == 0, "\(record.stderr)")
        let segments = JSONLines.parse(record).filter { $0["type"] as? String == "segment" }.compactMap { $0["path"] as? String }
        #expect(segments.count == 2)
        let run = try CamrecBinary.run(["ls", "--thumbs", "--json", folder.path("cam.mp4")])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("thumbnails: 2 made, 0 reused"), "\(run.stderr)")
        for segment in segments {
            let line = try #require(JSONLines.parse(run).first { $0["path"] as? String == segment })
            let thumbnail = try #require(line["thumbnail"] as? String, "\(line)")
            #expect(thumbnail == folder.path(".thumbs/" + URL(fileURLWithPath: segment).lastPathComponent + ".jpg"))
            let probe = try MediaProbe.probe(thumbnail)
            #expect(probe.codec == "mjpeg" && probe.width == 160 && probe.height == 120, "\(probe)")
            let stamp = try FrameStampReader.sequence(inImage: URL(fileURLWithPath: thumbnail),
                                                      region: .init(width: 160, sourceWidth: 640))
            // The keyframe nearest the middle, by ffprobe's packet flags, and its stamp.
            let packets = try ChildProcess.run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries",
                                                           "packet=pts_time,flags", "-of", "csv=p=0", segment])
            let keyframes = packets.stdoutText.split(separator: "\n").compactMap { line -> Double? in
                let fields = line.split(separator: ",")
                return fields.count >= 2 && fields[1].contains("K") ? Double(fields[0]) : nil
            }
            let middle = try MediaProbe.probe(segment).duration / 2
            let nearest = try #require(keyframes.min { abs($0 - middle) < abs($1 - middle) })
            let stamps = try FrameStampReader.sequences(inVideo: URL(fileURLWithPath: segment))
            let expected = stamps[Int((nearest * 30).rounded())]
            #expect(stamp != nil && stamp == expected, "thumbnail of frame \(stamp.map(String.init) ?? "?"), want \(expected.map(String.init) ?? "?") at \(nearest) s")
        }
        let again = try CamrecBinary.run(["ls", "--thumbs", folder.path("cam.mp4")])
        #expect(again.stderr.contains("thumbnails: 0 made, 2 reused"), "\(again.stderr)")
        // A movie newer than its thumbnail gets a new one.
        let later = Date().addingTimeInterval(60)
        try FileManager.default.setAttributes([.modificationDate: later], ofItemAtPath: segments[0])
        let remade = try CamrecBinary.run(["ls", "--thumbs", folder.path("cam.mp4")])
        #expect(remade.stderr.contains("thumbnails: 1 made, 1 reused"), "\(remade.stderr)")
    }
}

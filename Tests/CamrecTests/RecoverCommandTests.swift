import Foundation
import Testing

/// End to end: recordings are killed (`kill -9` once camrec has let enough frames in, never
/// after a sleep), cut as a full disk would cut them, or made by gst-launch with sound;
/// `camrec recover` turns them into finished movies, and ffprobe/ffmpeg (not camrec) say
/// what the results hold: as many frames as were whole on disk, at the same times.
///
/// Serialized: its cases record, and recordings on a loaded 2-core machine measure the
/// machine when several run at once.
@Suite(.serialized) struct RecoverCommandTests {
    /// A recording of the test pattern killed with SIGKILL after `frames` frames: its
    /// partial file, the OUTPUT it was meant for, and the frames camrec had let in.
    func killedRecording(_ container: String, frames: Int = 75, in folder: TemporaryFolder,
                         name: String = "movie") throws -> (partial: String, output: String, reported: Int) {
        let output = folder.path("\(name).\(container)")
        let sockets = try TemporaryFolder()
        defer { sockets.remove() }
        let socket = sockets.path("control")
        let run = try CamrecBinary.start(["--device", "test", "--size", "320x240", "--fps", "30", "--max-duration", "none",
                                          "--control", socket, "--json", output])
        try #require(RecordingWait.frames(frames, socket: socket), "no \(frames) frames within 60 s: \(run.stderrText)")
        let reported = RecordingWait.currentFrames(socket: socket) ?? frames
        run.signal(SIGKILL)
        #expect(run.wait(timeout: 60) == -SIGKILL)
        let partial = try #require(run.lines(type: "started").first?["partial_path"] as? String)
        return (partial, output, reported)
    }

    func recover(_ arguments: [String]) throws -> (status: Int32, lines: [[String: Any]], stderr: String) {
        let result = try CamrecBinary.run(["recover"] + arguments)
        return (result.status, JSONLines.parse(result), result.stderr)
    }

    /// Video frames ffprobe decodes in `path` (0 when it cannot read it).
    func frames(_ path: String) -> Int { (try? MediaProbe.probe(path).frames) ?? 0 }

    /// Every video packet's time and keyframe flag, as ffprobe reads them.
    func packetTimes(_ path: String, stream: String = "v:0") throws -> String {
        let result = try ChildProcess.run("ffprobe", ["-v", "error", "-select_streams", stream,
                                                      "-show_entries", "packet=pts,dts,flags", "-of", "csv=p=0", path])
        return result.stdoutText
    }

    /// The file's bytes (the movies here are small).
    func digest(_ path: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: path))
    }

    /// The file's inode number.
    func inode(_ path: String) -> UInt64 {
        var info = stat()
        return stat(path, &info) == 0 ? UInt64(info.st_ino) : 0
    }

    @Test(arguments: ["mp4", "mov", "mkv"])
    func aKilledRecordingIsRecovered(container: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (partial, finalName, reported) = try killedRecording(container, frames: 90, in: folder)
        // What was whole on disk: ffmpeg reads the complete fragments or blocks of the partial
        // file (how much the muxer had written by the kill is the recorder's business).
        let onDisk = frames(partial)
        // (The movie's file sink writes every frame as it comes: frames let in between the
        // status reply and the kill are on disk too.)
        #expect(onDisk > 0 && onDisk <= reported + 30, "\(onDisk) of \(reported) frames on disk")
        let before = try digest(partial)
        let run = try recover(["--json", partial])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.lines.count == 1)
        let result = try #require(run.lines.first)
        #expect(result["type"] as? String == "result")
        #expect(result["status"] as? String == "recovered")
        #expect(result["input"] as? String == partial)
        // Issue 29 item 5: never NAME.EXT, which a newer recording may hold by now.
        let output = result["output"] as? String ?? ""
        let stem = (finalName as NSString).deletingPathExtension
        #expect(output.hasPrefix(stem + "-recovered-") && output.hasSuffix("." + container) && output != finalName,
                "NAME.partial.EXT becomes NAME-recovered-STAMP.EXT: \(output)")
        #expect(result["container"] as? String == container)
        let probe = try MediaProbe.probe(output)
        #expect(result["frames"] as? Int == probe.frames)
        // Everything ffmpeg reads of the partial file, and for MP4/MOV also the frames of the
        // fragment being written, whose index (moof) comes only after them (issue 29 item 4):
        // found by walking their data, at most the frames let in until the kill landed.
        if container == "mkv" {
            #expect(probe.frames == onDisk)
        } else {
            #expect(probe.frames >= onDisk && probe.frames <= reported + 30, "\(probe.frames) frames, \(onDisk) indexed, \(reported) let in")
        }
        #expect(probe.codec == "h264")
        #expect(result["bytes"] as? Int == Int(OutputFileSize.of(output)))
        #expect((result["lost_tail_bytes"] as? Int ?? -1) >= 0)
        #expect(abs((result["duration"] as? Double ?? 0) - Double(probe.frames) / 30) < 0.01)
        #expect(abs(probe.duration - Double(probe.frames) / 30) < 0.05, "ffprobe: \(probe.duration) s for \(probe.frames) frames")
        #expect(try MediaProbe.decodeErrors(output).isEmpty)
        // Exact times, bit for bit: the packets ffmpeg reads from the partial file come first,
        // unchanged; the walked ones follow them.
        let partialPackets = try packetTimes(partial).split(separator: "\n")
        let outputPackets = try packetTimes(output).split(separator: "\n")
        #expect(Array(outputPackets.prefix(partialPackets.count)) == partialPackets)
        // The recording's date and tags stay.
        let tags = ["-v", "error", "-show_entries", "format_tags=creation_time,encoder", "-of", "csv=p=0"]
        #expect(try ChildProcess.run("ffprobe", tags + [output]).stdoutText == ChildProcess.run("ffprobe", tags + [partial]).stdoutText)
        if container != "mkv" {
            #expect(!(try MediaProbe.topLevelBoxes(output)).contains("moof"), "a plain movie, not fragmented")
        }
        // The input is only read.
        #expect(try digest(partial) == before)
        // Nothing else is left: no temporary file.
        #expect(folder.contents == [(output as NSString).lastPathComponent, (partial as NSString).lastPathComponent].sorted())
        // Recovering it again: the name is taken, so the copy takes the next one (never replacing).
        let again = try recover(["--json", partial])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.lines.first?["output"] as? String == (output as NSString).deletingPathExtension + "-2." + container)
    }

    /// A full disk cuts a file at any byte: inside a fragment's data, inside its index
    /// (`moof`), inside a Matroska block. What stays is what was whole before the cut.
    @Test(arguments: ["mp4", "mkv"])
    func aFileCutByAFullDiskIsRecovered(container: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (partial, _, _) = try killedRecording(container, frames: 120, in: folder)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: partial)))
        // (cut, a cut that ffmpeg can read and that holds the same whole frames)
        var cuts: [(Int, Int)] = []
        if container == "mp4" {
            let boxes = BoxWalk.topLevel(bytes)
            let moofs = boxes.filter { $0.type == "moof" }
            let datas = boxes.filter { $0.type == "mdat" }
            try #require(moofs.count >= 2 && datas.count >= 3, "\(boxes.map(\.type))")
            // Inside the third data box (its index never came), and inside the second moof
            // (the same frames as a cut just before that moof).
            cuts.append(((datas[2].start + datas[2].end) / 2, (datas[2].start + datas[2].end) / 2))
            cuts.append((moofs[1].start + 100, moofs[1].start))
        } else {
            for fraction in [0.37, 0.61, 0.83] {
                let cut = Int(Double(bytes.count) * fraction) + 7
                cuts.append((cut, cut))
            }
        }
        for (index, (cut, readable)) in cuts.enumerated() {
            let file = folder.path("cut\(index).partial.\(container)")
            try Data(bytes[..<cut]).write(to: URL(fileURLWithPath: file))
            let reference = folder.path("reference\(index).\(container)")
            try Data(bytes[..<readable]).write(to: URL(fileURLWithPath: reference))
            let whole = frames(reference)
            #expect(whole > 0)
            let run = try recover(["--json", file])
            #expect(run.status == 0, "cut at \(cut): \(run.stderr)")
            let result = try #require(run.lines.first)
            let output = result["output"] as? String ?? ""
            #expect(output.hasPrefix(folder.path("cut\(index)-recovered-")), "\(output)")
            // MP4: also the whole frames of the data whose moof the cut took (walked, issue 29 item 4).
            let got = result["frames"] as? Int ?? 0
            #expect(container == "mp4" ? got >= whole : got == whole, "cut at \(cut) of \(bytes.count): \(got), \(whole) indexed")
            #expect(frames(output) == got, "cut at \(cut)")
            #expect((result["lost_tail_bytes"] as? Int ?? 0) > 0)
            #expect(try MediaProbe.decodeErrors(output).isEmpty)
        }
    }

    /// mp4mux's hybrid MP4 with AAC sound (as camrec will record with a microphone), killed:
    /// video and sound come back, each with every sample of the complete fragments.
    @Test func aKilledMovieWithSoundKeepsItsSound() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let partial = folder.path("sound.partial.mp4")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ChildProcess.cleanSignals + ["gst-launch-1.0", "-q",
            "videotestsrc", "is-live=true", "!", "video/x-raw,width=320,height=240,framerate=30/1", "!",
            "x264enc", "key-int-max=15", "speed-preset=ultrafast", "bframes=2", "!", "h264parse", "!",
            "mp4mux", "fragment-duration=500", "fragment-mode=first-moov-then-finalise", "name=mux", "!",
            "filesink", "location=\(partial)",
            "audiotestsrc", "is-live=true", "!", "audioconvert", "!", "voaacenc", "!", "aacparse", "!", "mux."]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let fragments = Wait.until(timeout: 60) {
            let bytes = (try? [UInt8](Data(contentsOf: URL(fileURLWithPath: partial)))) ?? []
            return BoxWalk.topLevel(bytes).filter { $0.type == "moof" }.count >= 3
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        try #require(fragments, "gst-launch wrote no 3 fragments within 60 s")
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: partial)))
        let expected = BoxWalk.samplesInCompleteFragments(bytes)
        try #require(expected["vide"] ?? 0 > 0 && expected["soun"] ?? 0 > 0, "\(expected)")

        let run = try recover(["--json", partial])
        #expect(run.status == 0, "\(run.stderr)")
        let result = try #require(run.lines.first)
        let output = result["output"] as? String ?? ""
        #expect(output.hasPrefix(folder.path("sound-recovered-")), "\(output)")
        let tracks = try #require(result["tracks"] as? [[String: Any]])
        #expect(tracks.map { $0["kind"] as? String } == ["video", "audio"])
        #expect(tracks.map { $0["samples"] as? Int } == [expected["vide"], expected["soun"]])
        #expect(result["frames"] as? Int == expected["vide"])
        // ffprobe counts the same, decodes both cleanly, and video and sound last as long.
        let counts = try ChildProcess.run("ffprobe", ["-v", "error", "-count_packets", "-show_entries",
                                                      "stream=codec_type,nb_read_packets,duration", "-of", "csv=p=0", output])
        let rows = counts.stdoutText.split(separator: "\n").map { $0.split(separator: ",").map(String.init) }
        #expect(rows.map(\.first) == ["video", "audio"])
        #expect(rows.compactMap { Int($0.last ?? "") } == [expected["vide"] ?? -1, expected["soun"] ?? -1], "\(rows)")
        let durations = rows.compactMap { $0.count > 1 ? Double($0[1]) : nil }
        #expect(durations.count == 2 && abs(durations[0] - durations[1]) < 0.1, "\(rows)")
        #expect(frames(output) == expected["vide"])
        #expect(try MediaProbe.decodeErrors(output).isEmpty)
    }

    @Test(arguments: ["mp4", "mkv"])
    func aCompleteFileIsReportedAndLeftAlone(container: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let movie = folder.path("done.\(container)")
        let recorded = try CamrecBinary.run(["--device", "test", "--size", "320x240", "--max-duration", "1", "-q", movie])
        try #require(recorded.status == 0, "\(recorded.stderr)")
        let before = try digest(movie)
        let modified = try FileManager.default.attributesOfItem(atPath: movie)[.modificationDate] as? Date
        for options in [["--json"], ["--json", "--in-place"], ["--json", "-o", folder.path("copy.\(container)")]] {
            let run = try recover(options + [movie])
            #expect(run.status == 0, "\(run.stderr)")
            let result = try #require(run.lines.first)
            #expect(result["status"] as? String == "complete")
            #expect(result["output"] == nil)
            #expect(result["frames"] as? Int == frames(movie))
        }
        let human = try recover([movie])
        #expect(human.stderr.contains("already a finished movie"))
        #expect(try digest(movie) == before)
        #expect(try FileManager.default.attributesOfItem(atPath: movie)[.modificationDate] as? Date == modified)
        #expect(folder.contents == ["done.\(container)"])
    }

    /// Garbage, a text file and files cut inside their header are refused with one line and
    /// exit status 65; nothing is written. (An empty partial file is removed: issue 29 item 5,
    /// RecoverLeftoversTests.)
    @Test func garbageAndTruncatedHeadersAreRefused() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (partial, _, _) = try killedRecording("mp4", frames: 75, in: folder, name: "real")
        let mp4 = try [UInt8](Data(contentsOf: URL(fileURLWithPath: partial)))
        try FileManager.default.removeItem(atPath: partial)
        var random = SystemRandomNumberGenerator()
        let files: [(String, [UInt8])] = [
            ("random.partial.mp4", (0..<5000).map { _ in UInt8.random(in: 0...255, using: &random) }),
            ("notes.partial.mkv", Array("these are not the frames you are looking for\n".utf8)),
            ("header.partial.mp4", Array(mp4.prefix(24))),
            ("nomoov.partial.mp4", Array(mp4.prefix(2000))),
            ("ebml.partial.mkv", [0x1A, 0x45, 0xDF, 0xA3, 0xA3, 0x42, 0x86, 0x81]),
        ]
        for (name, bytes) in files {
            try Data(bytes).write(to: URL(fileURLWithPath: folder.path(name)))
        }
        for (name, _) in files {
            let run = try recover([folder.path(name)])
            #expect(run.status == 65, "\(name): \(run.stderr)")
            let lines = run.stderr.split(separator: "\n")
            #expect(lines.count == 1 && lines[0].hasPrefix("camrec: "), "\(name): \(run.stderr)")
            let json = try recover(["--json", folder.path(name)])
            #expect(json.status == 65)
            #expect(json.lines.count == 1)
            #expect(json.lines.first?["status"] as? String == "refused")
            #expect(json.lines.first?["exit_code"] as? Int == 65)
        }
        #expect(folder.contents == files.map(\.0).sorted())
    }

    /// `--in-place` replaces the file by one rename: the old file is never written to (a
    /// hard link to it still holds the original bytes), and a recovery killed while writing
    /// leaves the input exactly as it was.
    @Test func inPlaceIsAtomic() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (partial, _, _) = try killedRecording("mp4", frames: 90, in: folder)
        let original = try digest(partial)
        let onDisk = frames(partial)
        let size = OutputFileSize.of(partial)

        // Killed while writing: the file may not grow past a third of the input.
        let copy = folder.path("copy.partial.mp4")
        try FileManager.default.copyItem(atPath: partial, toPath: copy)
        let limited = try ChildProcess.run("bash", ["-c", "ulimit -f \(size / 3 / 1024); exec \"$0\" recover --in-place \"$1\"",
                                                    CamrecBinary.url.path, copy])
        #expect(limited.status != 0, "the recovery was meant to be stopped by the file size limit")
        #expect(try digest(copy) == original, "a recovery killed while writing changed its input")

        let link = folder.path("link-to-original")
        try FileManager.default.linkItem(atPath: partial, toPath: link)
        let before = inode(partial)
        let run = try recover(["--json", "--in-place", partial])
        #expect(run.status == 0, "\(run.stderr)")
        let result = try #require(run.lines.first)
        #expect(result["status"] as? String == "recovered")
        // Issue 29 item 5: the finished movie drops the .partial name, and the partial file goes.
        let output = try #require(result["output"] as? String)
        #expect(output.hasPrefix(folder.path("movie-recovered-")) && output.hasSuffix(".mp4"), "\(output)")
        #expect(!FileManager.default.fileExists(atPath: partial), "the partial file is still there")
        // With the frames of the fragment being written (walked: their moof never came).
        #expect(frames(output) >= onDisk)
        #expect(!(try MediaProbe.topLevelBoxes(output)).contains("moof"))
        #expect(try MediaProbe.decodeErrors(output).isEmpty)
        #expect(inode(output) != before, "a new file, not the partial one rewritten")
        #expect(try digest(link) == original, "the original file was written to instead of replaced")
        // Only hidden temporary files of the killed run may be left; none of this one.
        let left = folder.contents.filter { $0.hasPrefix(".") && $0.contains(".recover-") }
        #expect(left.count <= 1, "\(folder.contents)")
        #expect(!left.contains { $0.hasPrefix(".movie") }, "\(folder.contents)")
    }

    @Test func anExistingOutputIsRefusedUnlessForced() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (partial, output, _) = try killedRecording("mkv", frames: 40, in: folder)
        let other = folder.path("other.mkv")
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: other))
        try Data("me too".utf8).write(to: URL(fileURLWithPath: output))
        let run = try recover(["-o", other, partial])
        #expect(run.status == 73, "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
        #expect(run.stderr.contains("--force"))
        #expect(try String(contentsOfFile: other, encoding: .utf8) == "keep me")
        #expect(folder.contents == ["movie.mkv", "movie.partial.mkv", "other.mkv"])
        // The default name never meets the newer recording's movie.mkv (issue 29 item 5).
        let beside = try recover(["--json", partial])
        #expect(beside.status == 0, "\(beside.stderr)")
        #expect((beside.lines.first?["output"] as? String ?? "").hasPrefix(folder.path("movie-recovered-")))
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "me too")
        let forced = try recover(["--json", "--force", "-o", other, partial])
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(frames(other) == frames(partial))
        // -o of another container is a usage error.
        let wrong = try recover(["-o", folder.path("x.mp4"), partial])
        #expect(wrong.status == 64, "\(wrong.stderr)")
    }

    /// Several files into a folder: one result line each; the exit status is the first
    /// refusal's, and the others are still recovered.
    @Test func severalFilesGoIntoAFolder() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // Past the first fragment (about 26 frames), so that the MP4 has its movie box.
        let (first, _, _) = try killedRecording("mp4", frames: 90, in: folder, name: "a")
        let (second, _, _) = try killedRecording("mkv", frames: 40, in: folder, name: "b")
        let junk = folder.path("junk.partial.mov")
        try Data("junk".utf8).write(to: URL(fileURLWithPath: junk))
        let target = folder.path("recovered")
        try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: false)
        let run = try recover(["--json", "-o", target, first, junk, second])
        #expect(run.status == 65, "\(run.stderr)")
        #expect(run.lines.map { $0["status"] as? String } == ["recovered", "refused", "recovered"])
        let outputs = run.lines.map { $0["output"] as? String }
        #expect(outputs[1] == nil)
        #expect(outputs[0]?.hasPrefix(target + "/a-recovered-") == true && outputs[2]?.hasPrefix(target + "/b-recovered-") == true,
                "\(outputs)")
        #expect(frames(outputs[0] ?? "") >= frames(first), "with the walked frames of its last fragment")
        #expect(frames(outputs[2] ?? "") == frames(second))
        // -o naming a file with several FILEs is a usage error.
        let usage = try recover(["-o", folder.path("one.mp4"), first, second])
        #expect(usage.status == 64)
        let help = try CamrecBinary.run(["help", "recover"])
        #expect(help.status == 0)
        #expect(help.stdoutText.contains("--in-place") && help.stdoutText.contains("Exit codes:"))
    }
}

/// A few lines of ISO box walking, independent of camrec's MP4 module: the top-level boxes
/// of a file and the samples its complete fragments hold.
enum BoxWalk {
    struct Found {
        var type: String
        var start: Int
        var end: Int
    }

    /// The boxes in `range`, stopping at one that runs past its end.
    static func boxes(_ bytes: [UInt8], _ range: Range<Int>) -> [Found] {
        var found: [Found] = []
        var offset = range.lowerBound
        while offset + 8 <= range.upperBound {
            var size = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
            if size == 1, offset + 16 <= range.upperBound { size = bytes[offset + 8..<offset + 16].reduce(0) { $0 << 8 | Int($1) } }
            guard size >= 8, offset + size <= range.upperBound else { break }
            found.append(Found(type: type, start: offset, end: offset + size))
            offset += size
        }
        return found
    }

    static func topLevel(_ bytes: [UInt8]) -> [Found] { boxes(bytes, 0..<bytes.count) }

    static func uint32(_ bytes: [UInt8], _ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }

    /// Samples per handler ("vide", "soun") in `moov`'s tables and in every whole `moof`
    /// (in mp4mux's hybrid layout a moof follows its data, so a whole moof is a whole fragment).
    static func samplesInCompleteFragments(_ bytes: [UInt8]) -> [String: Int] {
        var handlers: [Int: String] = [:]
        var counts: [String: Int] = [:]
        let top = topLevel(bytes)
        func children(_ box: Found, skip: Int = 8) -> [Found] { boxes(bytes, box.start + skip..<box.end) }
        guard let moov = top.first(where: { $0.type == "moov" }) else { return [:] }
        for trak in children(moov) where trak.type == "trak" {
            let parts = children(trak)
            guard let tkhd = parts.first(where: { $0.type == "tkhd" }),
                  let mdia = parts.first(where: { $0.type == "mdia" }) else { continue }
            let id = uint32(bytes, tkhd.start + 8 + 4 + (bytes[tkhd.start + 8] == 1 ? 16 : 8))
            let media = children(mdia)
            guard let hdlr = media.first(where: { $0.type == "hdlr" }),
                  let minf = media.first(where: { $0.type == "minf" }),
                  let stbl = children(minf).first(where: { $0.type == "stbl" }),
                  let stsz = children(stbl).first(where: { $0.type == "stsz" }) else { continue }
            let handler = String(decoding: bytes[hdlr.start + 16..<hdlr.start + 20], as: UTF8.self)
            handlers[id] = handler
            counts[handler, default: 0] += uint32(bytes, stsz.start + 16)
        }
        for moof in top where moof.type == "moof" {
            for traf in children(moof) where traf.type == "traf" {
                let parts = children(traf)
                guard let tfhd = parts.first(where: { $0.type == "tfhd" }),
                      let handler = handlers[uint32(bytes, tfhd.start + 12)] else { continue }
                for trun in parts where trun.type == "trun" {
                    counts[handler, default: 0] += uint32(bytes, trun.start + 12)
                }
            }
        }
        return counts
    }
}

import Foundation
import Synchronization
import Testing

/// `--serve`: the recording's own stream over RTSP, read by ffmpeg and ffprobe on 127.0.0.1
/// only. Clients must get the movie's codec and size and frames; a client that stops
/// reading must not cost the movie a frame (the camera's frame stamps in the movie, read
/// back, are contiguous); digest authentication must refuse a wrong password.
@Suite("Live stream: --serve", .serialized)
struct LiveStreamTests {
    static func camera() throws -> [String: String] {
        try VirtualCameraEnvironment.shared().environment(spec: "/dev/video0,formats=yuyv,sizes=640x480@30,overrun=wait")
    }

    /// An open-ended 640x480@30 recording with `--serve 0` (a free port) and a control socket.
    static func record(_ options: [String], to movie: String, socket: String) throws -> RunningCamrec {
        try CamrecBinary.start(["--size", "640x480", "--fps", "30", "--max-duration", "none", "--serve", "0"] + options
                                   + ["--control", socket, "--json", movie], environment: try camera())
    }

    /// The URL the started line gives.
    static func url(_ run: RunningCamrec) throws -> String {
        try #require(run.waitForLine(type: "started"), "\(run.stderrText)")
        return try #require(run.lines(type: "started").first?["serve_url"] as? String, "no serve_url in the started line")
    }

    /// `url` with a user and password.
    static func url(_ url: String, user: String, password: String) -> String {
        url.replacingOccurrences(of: "rtsp://", with: "rtsp://\(user):\(password)@")
    }

    /// What ffprobe reads of the stream: "h264,640,480".
    static func probe(_ url: String) throws -> ChildProcessResult {
        // A loaded machine can take long to give ffprobe its few seconds of stream: the bound
        // is for a hung probe, not a slow one.
        try ChildProcess.run("ffprobe", ["-v", "error", "-rtsp_transport", "tcp", "-show_entries", "stream=codec_name,width,height",
                                         "-of", "csv=p=0", url], timeout: 180)
    }

    /// Reads `frames` frames of the stream (ffmpeg, decoding them).
    static func read(_ url: String, frames: Int) throws -> ChildProcessResult {
        try ChildProcess.run("ffmpeg", ["-nostdin", "-v", "error", "-rtsp_transport", "tcp", "-i", url, "-frames:v", "\(frames)",
                                        "-f", "null", "-"], timeout: 60)
    }

    @Test("clients read the recording's own stream, while one that stops reading costs the movie no frame")
    func clientsAndAStalledOne() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let movie = folder.path("served.mkv")
        let socket = folder.path("control")
        let run = try Self.record([], to: movie, socket: socket)
        defer { run.signal(SIGKILL) }
        let url = try Self.url(run)
        #expect(url.hasPrefix("rtsp://127.0.0.1:") && url.hasSuffix("/live"), "\(url)")
        #expect(RecordingWait.status(socket: socket)?["serve_url"] as? String == url)

        // A client that stops reading: ffmpeg copying the stream into a pipe nobody reads. Once
        // the pipe cannot take its next write (it writes 32 KB at a time into 64 KB) it blocks,
        // and its socket fills up on the server's side.
        let stalled = Process()
        let unread = Pipe()
        stalled.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        stalled.arguments = ChildProcess.cleanSignals + ["ffmpeg", "-nostdin", "-v", "error", "-rtsp_transport", "tcp", "-i", url,
                                                         "-c", "copy", "-f", "h264", "-"]
        stalled.standardInput = FileHandle.nullDevice
        stalled.standardOutput = unread
        stalled.standardError = FileHandle.nullDevice
        try stalled.run()
        defer { kill(stalled.processIdentifier, SIGKILL) }
        let pipeFull = Wait.until(timeout: 60) {
            var waiting: Int32 = 0
            return ioctl(unread.fileHandleForReading.fileDescriptor, UInt(FIONREAD), &waiting) == 0 && waiting > 32_768
        }
        try #require(pipeFull, "the stalled client never got the stream")
        let stalledAt = RecordingWait.currentFrames(socket: socket) ?? 0

        // Meanwhile, two clients at once get the movie's codec, size and frames.
        let results = Mutex<[ChildProcessResult?]>([nil, nil, nil])
        DispatchQueue.concurrentPerform(iterations: 3) { index in
            let result = index == 0 ? try? Self.probe(url) : try? Self.read(url, frames: 60)
            results.withLock { $0[index] = result }
        }
        let got = results.withLock { $0 }
        #expect(got[0]?.status == 0 && got[0]?.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines) == "h264,640,480",
                "\(got[0]?.stdoutText ?? "") \(got[0]?.stderr ?? "")")
        for reader in got.dropFirst() {
            #expect(reader?.status == 0, "a client could not read 60 frames: \(reader?.stderr ?? "did not run")")
        }
        // The recording goes on well past the stall before it stops.
        try #require(RecordingWait.frames(stalledAt + 90, socket: socket), "\(run.stderrText)")
        run.signal(SIGINT)
        #expect(run.wait() == 0, "\(run.stderrText)")
        let result = try #require(run.lines(type: "result").last)
        #expect(result["dropped_frames"] as? Int == 0)
        let frames = (result["files"] as? [[String: Any]])?.first?["frames"] as? Int ?? 0
        #expect(try MediaProbe.probe(movie).frames == frames)
        let stamps = try FrameStampReader.sequences(inVideo: URL(fileURLWithPath: movie)).compactMap { $0 }
        #expect(stamps.count == frames && zip(stamps, stamps.dropFirst()).allSatisfy { $1 == $0 + 1 },
                "the movie lost camera frames: \(stamps.count) stamps of \(frames) frames")
    }

    @Test("--serve-auth: no password and a wrong one are refused, the right one reads the stream")
    func digestAuthentication() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let socket = folder.path("control")
        let run = try Self.record(["--serve-auth", "viewer:s3cret"], to: folder.path("auth.mkv"), socket: socket)
        defer { run.signal(SIGKILL) }
        let url = try Self.url(run)
        let none = try Self.probe(url)
        #expect(none.status != 0 && none.stderr.contains("401"), "\(none.stderr)")
        let wrong = try Self.probe(Self.url(url, user: "viewer", password: "guess"))
        #expect(wrong.status != 0 && wrong.stderr.contains("401"), "\(wrong.stderr)")
        let right = try Self.probe(Self.url(url, user: "viewer", password: "s3cret"))
        #expect(right.status == 0 && right.stdoutText.contains("h264,640,480"), "\(right.stderr)")
        #expect(RecordingWait.stop(socket: socket))
        #expect(run.wait() == 0, "\(run.stderrText)")
    }

    /// Issue 29 item 13: the password need not be on the command line, where every user of
    /// the machine reads it: a file only its owner may read, or the environment. One given
    /// on the command line is warned about; a file others can read is refused.
    @Test("--serve-auth-file and CAMREC_SERVE_AUTH log in as --serve-auth does", arguments: ["file", "environment"])
    func item13_thePasswordFromAFileOrTheEnvironment(_ from: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let socket = folder.path("control")
        let login = folder.path("login")
        try "viewer:s3cret\n".write(toFile: login, atomically: true, encoding: .utf8)
        chmod(login, 0o600)
        var environment = try Self.camera()
        var options: [String] = []
        if from == "file" { options = ["--serve-auth-file", login] } else { environment["CAMREC_SERVE_AUTH"] = "viewer:s3cret" }
        let run = try CamrecBinary.start(["--size", "640x480", "--fps", "30", "--max-duration", "none", "--serve", "0"] + options
                                         + ["--control", socket, "--json", folder.path("auth.mkv")], environment: environment)
        defer { run.signal(SIGKILL) }
        let url = try Self.url(run)
        let commandLine = try Data(contentsOf: URL(fileURLWithPath: "/proc/\(run.pid)/cmdline"))
        #expect(!String(decoding: commandLine, as: UTF8.self).contains("s3cret"), "the password is not in /proc/PID/cmdline")
        let none = try Self.probe(url)
        #expect(none.status != 0 && none.stderr.contains("401"), "\(none.stderr)")
        let right = try Self.probe(Self.url(url, user: "viewer", password: "s3cret"))
        #expect(right.status == 0 && right.stdoutText.contains("h264,640,480"), "status \(right.status), timed out: \(right.timedOut): \(right.stderr)")
        #expect(!run.stderrText.contains("can be read by every user"), "\(run.stderrText)")
        #expect(RecordingWait.stop(socket: socket))
        #expect(run.wait() == 0, "\(run.stderrText)")
    }

    @Test func item13_aLoginFileOthersCanReadIsRefusedAndACommandLinePasswordWarned() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let login = folder.path("login")
        try "viewer:s3cret\n".write(toFile: login, atomically: true, encoding: .utf8)
        chmod(login, 0o644)
        let refused = try CamrecBinary.run(["--device", "test", "--serve", "0", "--serve-auth-file", login, "-t", "1",
                                            folder.path("x.mkv")])
        #expect(refused.status == 64, "\(refused.stderr)")
        #expect(refused.stderr.contains("can be read by other users (mode 644): chmod 600 \(login)"), "\(refused.stderr)")
        #expect(!refused.stderr.contains("s3cret"))
        let warned = try CamrecBinary.run(["--device", "test", "--size", "320x240", "--serve", "0", "--serve-auth", "viewer:s3cret",
                                           "-t", "0.5", folder.path("y.mkv")])
        #expect(warned.status == 0, "\(warned.stderr)")
        #expect(warned.stderr.contains("--serve-auth on the command line can be read by every user of this machine"), "\(warned.stderr)")
        let help = try CamrecBinary.run(["--help"])
        #expect(help.stdoutText.contains("--serve-auth-file") && help.stdoutText.contains("CAMREC_SERVE_AUTH"))
    }

    @Test("with --audio, the stream has the movie's sound too", arguments: [("mp4", "aac"), ("mkv", "opus")])
    func soundIsServed(_ container: String, _ codec: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let socket = folder.path("control")
        let run = try Self.record(["--audio", "test"], to: folder.path("sound.\(container)"), socket: socket)
        defer { run.signal(SIGKILL) }
        let url = try Self.url(run)
        let probe = try Self.probe(url)
        let streams = probe.stdoutText.split(separator: "\n").map(String.init)
        #expect(probe.status == 0 && streams.contains("h264,640,480") && streams.contains { $0 == codec || $0.hasPrefix(codec + ",") },
                "\(probe.stdoutText) \(probe.stderr)")
        let sound = try ChildProcess.run("ffmpeg", ["-nostdin", "-v", "error", "-rtsp_transport", "tcp", "-i", url, "-map", "0:a",
                                                    "-t", "1", "-f", "null", "-"], timeout: 60)
        #expect(sound.status == 0, "\(sound.stderr)")
        #expect(RecordingWait.stop(socket: socket))
        #expect(run.wait() == 0, "\(run.stderrText)")
    }

    @Test("with --standby (no movie), the stream still serves live view")
    func standbyServes() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let socket = folder.path("control")
        let run = try Self.record(["--standby", "--post-roll", "1s"], to: folder.path("door.mkv"), socket: socket)
        defer { run.signal(SIGKILL) }
        let url = try Self.url(run)
        let probe = try Self.probe(url)
        #expect(probe.status == 0 && probe.stdoutText.contains("h264,640,480"), "\(probe.stderr)")
        #expect(RecordingWait.stop(socket: socket))
        #expect(run.wait() == 0, "\(run.stderrText)")
        #expect(!folder.contents.contains("door.mkv"), "\(folder.contents)")
    }

    @Test("a port another server holds stops camrec before it records (exit 69)")
    func portTaken() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let socket = folder.path("control")
        let first = try Self.record([], to: folder.path("first.mkv"), socket: socket)
        defer { first.signal(SIGKILL) }
        let url = try Self.url(first)
        let port = try #require(url.split(separator: ":").last?.split(separator: "/").first.map(String.init))
        let second = try CamrecBinary.run(["--size", "640x480", "--max-duration", "1s", "--serve", port, folder.path("second.mkv")],
                                          environment: try Self.camera())
        #expect(second.status == 69, "\(second.stderr)")
        #expect(second.stderr.contains("--serve 127.0.0.1:\(port): ") && second.stderr.contains("choose another port or address"),
                "\(second.stderr)")
        #expect(!folder.contents.contains { $0.hasPrefix("second") }, "\(folder.contents)")
        #expect(RecordingWait.stop(socket: socket))
        #expect(first.wait() == 0, "\(first.stderrText)")
    }

    @Test("gst-rtsp-server is loaded by a recording that serves, and not by one that does not")
    func theServerLibraryIsLoadedOnlyToServe() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        for serving in [true, false] {
            let socket = folder.path("control-\(serving)")
            let run = serving ? try Self.record([], to: folder.path("served.mkv"), socket: socket)
                : try CamrecBinary.start(["--size", "640x480", "--fps", "30", "--max-duration", "none", "--control", socket,
                                          "--json", folder.path("plain.mkv")], environment: try Self.camera())
            defer { run.signal(SIGKILL) }
            try #require(run.waitForLine(type: "started"), "\(run.stderrText)")
            // Read to the end: /proc files have no size, and a sized read stops at the first page.
            let file = try #require(FileHandle(forReadingAtPath: "/proc/\(run.pid)/maps"))
            let maps = String(decoding: try file.readToEnd() ?? Data(), as: UTF8.self)
            try? file.close()
            #expect(maps.contains("libgstreamer-1.0.so"), "\(maps.split(separator: "\n").count) mappings read")
            #expect(maps.contains("libgstrtspserver-1.0.so") == serving, "serving: \(serving)")
            // What the server library brings with it (GIO) comes only with it.
            #expect(maps.contains("libgio-2.0.so") == serving, "serving: \(serving)")
            #expect(RecordingWait.stop(socket: socket))
            #expect(run.wait() == 0, "\(run.stderrText)")
        }
    }

    @Test("without gst-rtsp-server, --serve says what to install and records nothing (exit 69)")
    func aMissingServerLibrary() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let run = try CamrecBinary.run(["--size", "640x480", "--max-duration", "1s", "--serve", "0", folder.path("m.mkv")],
                                       environment: try Self.camera().merging(
                                           ["CAMREC_RTSP_SERVER_LIBRARY": folder.path("libgstrtspserver-missing.so.0")]) { $1 })
        #expect(run.status == 69, "\(run.stderr)")
        #expect(run.stderr.contains("--serve needs GStreamer's RTSP server library")
                    && run.stderr.contains("apt install libgstrtspserver-1.0-0"), "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1, "one line: \(run.stderr)")
        #expect(folder.contents.isEmpty, "\(folder.contents)")
        // Recording without --serve needs no server library at all.
        let plain = try CamrecBinary.run(["--size", "640x480", "--max-duration", "1s", folder.path("plain.mkv")],
                                         environment: try Self.camera().merging(
                                             ["CAMREC_RTSP_SERVER_LIBRARY": folder.path("libgstrtspserver-missing.so.0")]) { $1 })
        #expect(plain.status == 0, "\(plain.stderr)")
    }

    @Test("a recorder is never open to a network by accident", arguments: [
        (["--serve", "0.0.0.0:8554"], "--serve 0.0.0.0:8554 would let anyone who reaches 0.0.0.0 watch the camera: give --serve-auth USER:PASSWORD"),
        (["--serve", "[::]:8554"], "would let anyone who reaches :: watch the camera"),
        (["--serve-auth", "a:b"], "--serve-auth needs --serve [ADDR:]PORT"),
        (["--serve-insecure"], "--serve-insecure needs --serve [ADDR:]PORT"),
        (["--serve", "0", "--serve-auth", "nopassword"], "--serve-auth: give USER:PASSWORD"),
        (["--serve", "0", "--serve-auth", "a:b", "--serve-auth-file", "/etc/hostname"], "give one of them"),
        (["--serve", "0", "--serve-auth-file", "/nonexistent/login"], "--serve-auth-file /nonexistent/login: No such file"),
        (["--serve-auth-file", "/etc/hostname"], "--serve-auth-file needs --serve [ADDR:]PORT"),
        (["--serve", "0.0.0.0:8554", "--serve-auth", "a:b", "--serve-insecure"], "contradict each other"),
        (["--serve", "port"], "--serve 'port': give a port (8554)"),
        (["--serve", "70000"], "--serve '70000': give a port"),
    ])
    func refusals(_ options: [String], _ message: String) throws {
        let result = try CamrecBinary.run(["--device", "test"] + options + ["out.mp4"])
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    @Test("a codec that is not served (yet) is refused before recording", arguments: [("mjpeg", "mkv"), ("h265", "mp4")])
    func otherCodecsAreRefused(_ codec: String, _ container: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let result = try CamrecBinary.run(["--device", "test", "--codec", codec, "--serve", "0", "--max-duration", "1s",
                                           folder.path("x.\(container)")])
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains("--serve streams H.264 only (yet), not \(codec)"), "\(result.stderr)")
        #expect(folder.contents.isEmpty, "\(folder.contents)")
    }
}

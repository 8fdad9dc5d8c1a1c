import Foundation
import Testing

/// Issue 31 item 7: `--codec copy` with several H.264 cameras in movies of their own. Each
/// movie is its camera's own stream, stored as it comes: it starts at the camera's first
/// keyframe at or after the run's common start, and its `start_offset` says how long after
/// that start its first frame was captured.
@Suite struct MultiCameraCopyTests {
    /// Two H.264 cameras (a keyframe every second, each counted from its own start of
    /// streaming) that start streaming 300 ms apart, so their keyframes do not line up.
    static func environment() throws -> [String: String] {
        try MultiCameraTests().environment(["/dev/video0,formats=h264,sizes=320x240@30,trace=frames,overrun=wait",
                                            "/dev/video1,formats=h264,sizes=320x240@30,trace=frames,overrun=wait,late=300ms"])
    }

    @Test("two H.264 cameras stored as they come: each movie its own camera's consecutive frames from a keyframe, exactly -t long, and start_offset where it began")
    func twoCamerasStoredAsTheyCome() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let devices = ["/dev/video0", "/dev/video1"]
        let run = try CamrecBinary.run(devices.flatMap { ["--device", $0] } + ["--codec", "copy", "-t", "3", "--json", folder.path("m.mp4")],
                                       environment: try Self.environment(), timeout: 120)
        try #require(run.status == 0, "\(run.stderr.suffix(2000))")
        let lines = JSONLines.parse(run)
        let started = try #require(lines.first { $0["type"] as? String == "started" })
        #expect(started["encoder"] as? String == "copy", "\(started)")
        let result = try #require(lines.last)
        let files = try #require(result["files"] as? [[String: Any]])
        let movies = ["m-1.mp4", "m-2.mp4"].map { folder.path($0) }
        #expect(files.map { $0["path"] as? String } == movies)
        #expect(Set(folder.contents) == ["m-1.mp4", "m-2.mp4"])

        let times = MultiCameraTests.captureTimes(run.stderr)
        var firstCaptures: [Double] = []
        var offsets: [Double] = []
        for (index, movie) in movies.enumerated() {
            let probe = try MediaProbe.probe(movie)
            #expect(probe.frames == 90, "\(movie): ffprobe counted \(probe.frames) frames")
            #expect(files[index]["frames"] as? Int == 90)
            // Stored, not encoded: H.264 and starting at a keyframe (ffprobe's own view).
            let first = try ChildProcess.run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-read_intervals", "%+#1",
                                                         "-show_entries", "frame=key_frame", "-of", "csv=p=0", movie])
            #expect(first.stdoutText.split(separator: "\n").first == "1", "\(movie) does not start at a keyframe: \(first.stdoutText)")
            let sequences = try FrameStampReader.sequences(inVideo: URL(fileURLWithPath: movie)).compactMap { $0 }
            #expect(sequences.count == 90, "\(movie): unreadable stamps")
            #expect(zip(sequences, sequences.dropFirst()).allSatisfy { $1 == $0 + 1 }, "\(movie): \(sequences)")
            let deviceTimes = try #require(times[devices[index]], "no trace=frames lines for \(devices[index])")
            let firstSequence = try #require(sequences.first)
            firstCaptures.append(try #require(deviceTimes[firstSequence], "\(devices[index]) frame \(firstSequence) has no capture time"))
            let offset = try #require(files[index]["start_offset"] as? Double, "no start_offset in \(files[index])")
            // At or after the common start, and no later than one keyframe interval (1 s) and a frame after it.
            #expect(offset >= 0 && offset <= 1.0 + 1.0 / 30, "\(movie): start_offset \(offset)")
            offsets.append(offset)
        }
        // The offsets are the first frames' capture times, measured from one instant: their
        // difference is the difference of the captures (to the millisecond the JSON gives).
        let said = offsets[1] - offsets[0], captured = firstCaptures[1] - firstCaptures[0]
        #expect(abs(said - captured) < 0.002, "start_offsets differ by \(said) s, the first frames were captured \(captured) s apart")
    }

    @Test("--codec auto with several H.264 cameras is refused, naming --codec h264 and --codec copy, nothing written")
    func autoWithSeveralH264CamerasIsRefused() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let run = try CamrecBinary.run(["--device", "/dev/video0", "--device", "/dev/video1", "-t", "1", folder.path("m.mp4")],
                                       environment: try Self.environment(), timeout: 120)
        #expect(run.status == 64, "\(run.stderr)")
        #expect(run.stderr.contains("--codec h264") && run.stderr.contains("--codec copy"), "\(run.stderr)")
        #expect(folder.contents.isEmpty)
    }
}

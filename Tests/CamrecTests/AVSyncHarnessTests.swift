import Foundation
import Testing

/// The whole sync harness with ffmpeg as the recorder, so that it is proven before camrec
/// records sound: the emulated camera flashes every 2 s (`flash=2s`), the click player
/// clicks into the test sound server at the same CLOCK_MONOTONIC instants, ffmpeg records
/// `-f v4l2` and `-f pulse` (the sink's monitor) for 8 s, and AVSync finds one offset per
/// flash. ffmpeg's offset itself is reported, not judged. Measured here over three runs each
/// (MP4/AAC; ms, sound early when negative): `-timestamps default` −5 to −45, `abs` −2 to
/// −33, `mono2abs` −3 to −38, `-use_wallclock_as_timestamps 1` on both inputs −46 to −72;
/// within one 8 s run ffmpeg's offset wanders by up to 17 ms (its pulse input stamps each
/// read with the wall clock minus a latency estimate), so the bound on the spread is loose.
/// `default` (the camera's monotonic stamps converted to wall-clock time, as ffmpeg does
/// unless told otherwise) was its best and steadiest: it is the peer's configuration.
@Suite("A/V sync harness: ffmpeg records the flashing camera and the clicks", .serialized)
struct AVSyncHarnessTests {
    @Test("8 s of ffmpeg -f v4l2 + -f pulse: one offset per flash, all within 40 ms of each other",
          arguments: [("mp4", ["-c:a", "aac"]), ("mkv", ["-c:a", "libopus"])])
    func ffmpegRecording(_ container: String, _ audioCodec: [String]) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let server = try TestSoundServer()
        defer { server.stop() }
        ClickedRecording.lock.lock()
        defer { ClickedRecording.lock.unlock() }
        let player = try ClickPlayer(server: server, periodMilliseconds: 2000)
        defer { player.stop() }
        let movie = folder.path("ffmpeg.\(container)")
        let camera = VirtualCameraDevice(formats: ["mjpeg"], sizes: ["640x480@30"], flash: "2s")
        var env = try VirtualCameraEnvironment.shared().environment([camera], base: server.environment())
        env["AV_LOG_FORCE_NOCOLOR"] = "1"
        let run = try ChildProcess.run("ffmpeg", [
            "-nostdin", "-v", "error", "-y",
            "-thread_queue_size", "512", "-f", "v4l2", "-input_format", "mjpeg",
            "-framerate", "30", "-video_size", "640x480", "-i", "/dev/video0",
            "-thread_queue_size", "512", "-f", "pulse", "-i", "vsink.monitor",
            "-t", "8", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p",
        ] + audioCodec + [movie], environment: env, timeout: 60)
        try #require(run.status == 0, "ffmpeg: \(run.stderr.suffix(800))")
        let sync = try AVSync.measure(movie)
        print("ffmpeg, \(container): \(sync); click player \(player.clicks.map { String(format: "%.2f", $0.error * 1000) }) ms")

        // every flash that the sound track covers has its click
        let span = try Self.audioSpan(movie)
        let covered = sync.flashes.filter { $0 > span.lowerBound + 0.1 && $0 < span.upperBound - 0.1 }
        #expect(sync.flashes.count >= 3, "\(sync)")
        #expect(sync.offsets.count >= covered.count && sync.offsets.count <= sync.flashes.count, "\(sync), sound \(span)")
        #expect(sync.offsets.count >= 3, "\(sync)")
        // The player's own jitter (how late each click reached the sound server: a few ms on
        // a quiet machine, more under load; issue 29 item 15) is the player's, not ffmpeg's:
        // the spread allowed grows by it.
        let errors = player.clicks.map(\.error)
        let jitter = (errors.max() ?? 0) - (errors.min() ?? 0)
        if let low = sync.offsets.min(), let high = sync.offsets.max() {
            #expect(high - low < 0.040 + jitter, "offsets \(sync.offsets), click player jitter \(jitter)")
            // Each click paired with its own flash (2 s apart), whatever ffmpeg's offset: it
            // reached −282 ms, steady to a millisecond, on a loaded machine (its pulse input
            // subtracts a latency estimate that load changes), so only half the flash period
            // bounds it.
            #expect(abs(low) < 1.0 && abs(high) < 1.0, "offsets \(sync.offsets)")
        }
        // every click near its instant, far within half the flash period, so that each click
        // is paired with its own flash above
        for click in player.clicks { #expect(abs(click.error) < 0.25, "\(player.clicks)") }
    }

    /// The sound track's first and last sample time, as ffprobe decodes it.
    static func audioSpan(_ movie: String) throws -> ClosedRange<Double> {
        let run = try ChildProcess.run("ffprobe", ["-v", "error", "-select_streams", "a:0", "-show_frames",
                                                   "-show_entries", "frame=best_effort_timestamp_time,duration_time",
                                                   "-of", "csv=p=0", movie])
        let rows = run.stdoutText.split(separator: "\n").map { $0.split(separator: ",").compactMap { Double($0) } }
        guard let first = rows.first?.first, let last = rows.last, last.count == 2 else { return 0...0 }
        return first...(last[0] + last[1])
    }
}

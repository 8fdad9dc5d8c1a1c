import Foundation
import Testing

/// `--reconnect` with sound: the camera is unplugged and comes back; each movie of the run
/// has its sound, starting and ending with its picture, the sound source started again with
/// the new pipeline.
@Suite("Sound: --reconnect")
struct SoundReconnectTests {
    @Test("a camera that comes back: both movies have sound in step with their picture, the limit holds")
    func cameraBackWithSound() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // The null sink's monitor: a sound-server source, started again with each pipeline.
        // (module-sine-source is no use here: in this server it delivers 200 ms every few seconds.)
        let server = try TestSoundServer()
        defer { server.stop() }
        // The movie starts with the first sound, which a loaded machine's sound server may
        // take a few seconds to deliver: the camera is unplugged after 4 s (120 frames), so
        // that the first movie has frames however late the sound starts (up to the 5 s camrec
        // waits for it), and the 5-s limit leaves frames for the second.
        let camera = ReconnectTests.camera.replacing("fault=unplug@45", with: "fault=unplug@120")
        var environment = try VirtualCameraEnvironment.shared().environment(
            spec: camera + ",replug=300", base: server.environment())
        environment["CAMREC_DEVICE_PATHS"] = nil
        let run = try CamrecBinary.run(["--device", "/dev/v4l/by-id/usb-Acme_Cam_0042-video-index0", "--size", "320x240",
                                        "--fps", "30", "-t", "5", "--reconnect", "--audio", "vsink.monitor", "--json",
                                        folder.path("r.mp4")],
                                       environment: environment, timeout: 120)
        #expect(run.status == 0, "\(run.stderr)")
        let lines = JSONLines.parse(run)
        let types = lines.compactMap { $0["type"] as? String }.filter { $0 != "warning" }
        #expect(types == ["started", "segment", "camera-lost", "camera-back", "segment", "result"], "\(types)")
        #expect(folder.contents == ["r-0001.mp4", "r-0002.mp4"])
        let result = try #require(lines.last)
        // Sound the source lost (a loaded machine's sound server can miss a few tens of ms)
        // is counted and recorded as silence; the spans below show the sound never shifts.
        #expect((result["dropped_audio_ms"] as? Int).map { $0 >= 0 } == true, "\(result)")
        #expect(result["audio_clock_ppm"] is Int, "\(result)")
        // The limit is on video, the gap not counted (as without sound: ReconnectTests).
        let frames = try folder.contents.map { try MediaProbe.probe(folder.path($0)).frames }
        let dropped = result["dropped_frames"] as? Int ?? -1
        #expect(abs(frames.reduce(0, +) + dropped - 150) <= 3, "\(frames) + \(dropped) dropped")
        for (index, name) in folder.contents.enumerated() {
            let movie = folder.path(name)
            let stream = try SoundRecordingTests.soundStream(movie)
            #expect(stream.codec == "aac", "\(name): \(stream)")
            #expect(try MediaProbe.decodeErrors(movie).isEmpty)
            let picture = try SoundRecordingTests.span(movie, stream: "v:0")
            let sound = try SoundRecordingTests.span(movie, stream: "a:0")
            // Each movie's sound starts with AAC's priming before its first frame (the first
            // movie) or at the cut (segments of one pipeline), and ends with its last frame.
            let priming = 1024.0 / 48000
            #expect(abs(sound.lowerBound + priming - picture.lowerBound) <= 1.0 / 30 + priming,
                    "movie \(index + 1): sound \(sound), picture \(picture)")
            // A sound server's timestamps jitter: audiorate lets the samples run up to its
            // tolerance (5 ms) off their timestamps before it adds or drops any, so the
            // sound cut at the last frame's time may hold that much more or less.
            let serverJitter = 0.005
            #expect(abs(sound.upperBound - picture.upperBound) <= priming + serverJitter + 0.002,
                    "movie \(index + 1): sound \(sound), picture \(picture)")
        }
    }
}

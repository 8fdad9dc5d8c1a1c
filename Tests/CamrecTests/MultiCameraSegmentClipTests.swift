import Foundation
import Testing

/// Event clips of a segmented run of several cameras: each camera's clips are named after
/// its own series (m-1-clip-0001.mkv beside m-1-0001.mkv), as its stills are. They were
/// refused as "the same clips" when every camera's clips read OUTPUT's name.
@Suite(.serialized) struct MultiCameraSegmentClipTests {
    @Test("--segment with clips of two cameras: each camera's series and its own clips, each clip a whole movie")
    func eachCamerasClipsBesideItsSeries() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let socket = folder.path("control")
        let specs = MultiCameraClipTests.devices.map { "\($0),formats=yuyv,sizes=320x240@30" }
        let run = try CamrecBinary.start(MultiCameraClipTests.devices.flatMap { ["--device", $0] }
                                             + ["--max-duration", "none", "--segment", "none", "--post-roll", "0.5s", "--clip-start", "exact",
                                                "--control", socket, "--json", folder.path("m.mkv")],
                                         environment: MultiCameraClipTests().environment(specs))
        defer { if run.process.isRunning { run.signal(SIGKILL) } }
        try #require(MultiCameraClipTests.allCameras(past: 10, socket: socket), "\(run.stderrText.suffix(1000))")
        run.signal(SIGUSR2)
        try #require(run.waitForLines(type: "clip", count: 2), "\(run.stderrText.suffix(1000))")
        #expect(RecordingWait.stop(socket: socket))
        #expect(run.wait() == 0, "\(run.stderrText.suffix(1000))")
        let movies = folder.contents.filter { $0.hasSuffix(".mkv") }.sorted()
        #expect(movies == ["m-1-0001.mkv", "m-1-clip-0001.mkv", "m-2-0001.mkv", "m-2-clip-0001.mkv"], "\(folder.contents)")
        for clip in ["m-1-clip-0001.mkv", "m-2-clip-0001.mkv"] {
            let probe = try MediaProbe.probe(folder.path(clip))
            #expect(probe.frames == 15, "\(clip): \(probe.frames) frames")
            #expect(try MediaProbe.decodeErrors(folder.path(clip)).isEmpty)
        }
        let paths = Set(run.lines(type: "clip").compactMap { $0["path"] as? String })
        #expect(paths == Set([folder.path("m-1-clip-0001.mkv"), folder.path("m-2-clip-0001.mkv")]))
    }
}

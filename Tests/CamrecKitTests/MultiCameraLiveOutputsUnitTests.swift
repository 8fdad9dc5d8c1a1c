import Synchronization
import Testing
@testable import CamrecKit

/// Issue 31 item 7, with plain values: each camera's `settled` event names it; each
/// camera's `serve_url` reaches the run's started line; each camera has its own RTSP path.
struct MultiCameraLiveOutputsUnitTests {
    final class Collected: Sendable {
        let events = Mutex<[RecordingEvent]>([])
        var all: [RecordingEvent] { events.withLock { $0 } }
    }

    func start(_ device: String, _ path: String, serve: String?) -> RecordingStart {
        var start = RecordingStart(path: path, partialPath: path + ".partial", device: device, format: "YUYV", size: "320x240",
                                   fps: "30", formatReason: nil, maxDuration: 3, pipeline: "", controls: nil)
        start.serveURL = serve
        return start
    }

    @Test func eachSettledLineNamesItsCamera() {
        let collected = Collected()
        let merger = CameraEventMerger(devices: ["/dev/video0", "/dev/video2"]) { event in
            collected.events.withLock { $0.append(event) }
        }
        merger.forward(.settled(SettleOutcome(milliseconds: 3000, stable: true, frames: 90)), camera: 1)
        merger.forward(.settled(SettleOutcome(milliseconds: 1500, stable: false, frames: 45)), camera: 0)
        let settled = collected.all.compactMap { event -> SettleOutcome? in
            if case .settled(let outcome) = event { outcome } else { nil }
        }
        #expect(settled.map(\.device) == ["/dev/video2", "/dev/video0"])
        #expect(settled.map(\.camera) == [2, 1])
        #expect(settled.map(\.frames) == [90, 45] && settled.map(\.stable) == [true, false])
    }

    @Test func theStartedLineListsEachCamerasURL() {
        let collected = Collected()
        let merger = CameraEventMerger(devices: ["/dev/video0", "/dev/video2"]) { event in
            collected.events.withLock { $0.append(event) }
        }
        merger.forward(.started(start("/dev/video0", "m-1.mp4", serve: "rtsp://127.0.0.1:8554/camera1")), camera: 0)
        merger.forward(.started(start("/dev/video2", "m-2.mp4", serve: "rtsp://127.0.0.1:8554/camera2")), camera: 1)
        guard case .started(let started)? = collected.all.first else {
            Issue.record("no started line: \(collected.all)")
            return
        }
        #expect(started.serveURL == "rtsp://127.0.0.1:8554/camera1")
        #expect(started.cameras?.map(\.serveURL) == ["rtsp://127.0.0.1:8554/camera1", "rtsp://127.0.0.1:8554/camera2"])
    }

    @Test func eachCameraHasItsOwnPath() {
        let settings = ServeSettings(address: "0.0.0.0", port: 8554)
        #expect(ServeSettings.cameraPath(2) == "/camera2")
        #expect(settings.urls(port: 8554, path: ServeSettings.cameraPath(2), interfaces: ["127.0.0.1", "192.0.2.7"])
                == ["rtsp://192.0.2.7:8554/camera2", "rtsp://127.0.0.1:8554/camera2"])
        #expect(ServeSettings(port: 0).urls(port: 40000, path: "/camera1") == ["rtsp://127.0.0.1:40000/camera1"])
    }
}

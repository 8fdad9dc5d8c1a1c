import Synchronization
import Testing
@testable import CamrecKit
@testable import CamrecCore

/// The events and result of several cameras made into one run's, with plain values.
struct CameraEventMergerTests {
    final class Collected: Sendable {
        let events = Mutex<[RecordingEvent]>([])
        var all: [RecordingEvent] { events.withLock { $0 } }
    }

    func start(_ device: String, _ path: String) -> RecordingStart {
        RecordingStart(path: path, partialPath: path + ".partial", device: device, format: "YUYV", size: "320x240",
                       fps: "30", formatReason: nil, maxDuration: 3, pipeline: "", controls: nil)
    }

    func movie(_ path: String, frames: Int = 90) -> ResultFile {
        ResultFile(path: path, kind: "movie", duration: Double(frames) / 30, frames: frames, bytes: 1000)
    }

    @Test func oneStartedLineOnceEveryCameraRuns() {
        let collected = Collected()
        let merger = CameraEventMerger(devices: ["/dev/video0", "/dev/video1"]) { event in
            collected.events.withLock { $0.append(event) }
        }
        merger.forward(.started(start("/dev/video1", "m-2.mp4")), camera: 1)
        #expect(collected.all.isEmpty)
        merger.forward(.started(start("/dev/video0", "m-1.mp4")), camera: 0)
        guard case .started(let started)? = collected.all.first else {
            Issue.record("no started line: \(collected.all)")
            return
        }
        #expect(started.device == "/dev/video0" && started.path == "m-1.mp4")
        #expect(started.cameras?.map(\.device) == ["/dev/video0", "/dev/video1"])
        #expect(started.cameras?.map(\.index) == [1, 2])
    }

    @Test func progressFromTheFirstCameraStoppingOnceWarningsNamed() {
        let collected = Collected()
        let merger = CameraEventMerger(devices: ["/dev/video0", "/dev/video1"]) { event in
            collected.events.withLock { $0.append(event) }
        }
        let progress = RecordingProgress(seconds: 1, frames: 30, bytes: 10, limit: nil, fps: 30)
        merger.forward(.progress(progress), camera: 1)
        merger.forward(.progress(progress), camera: 0)
        merger.forward(.stopping(.signal), camera: 0)
        merger.forward(.stopping(.signal), camera: 1)
        merger.forward(.warning("slow"), camera: 1)
        merger.forward(.still(ResultFile(path: "s.jpg", kind: "still", duration: nil, frames: nil, bytes: 1)), camera: 1)
        let all = collected.all
        #expect(all.count == 4)
        if case .warning(let text) = all[2] { #expect(text == "camera 2 (/dev/video1): slow") } else { Issue.record("\(all)") }
        if case .still(let file) = all[3] { #expect(file.device == "/dev/video1") } else { Issue.record("\(all)") }
    }

    @Test("a camera's segments, deletions, loss and return name it; its loss is not the run's stop")
    func unattendedLinesNameTheirCamera() {
        let collected = Collected()
        let merger = CameraEventMerger(devices: ["/dev/video0", "/dev/video1"]) { event in
            collected.events.withLock { $0.append(event) }
        }
        merger.forward(.segment(movie("m-2-0001.mp4")), camera: 1)
        merger.forward(.stopping(.cameraLost), camera: 1)
        merger.forward(.cameraLost("camera lost: gone"), camera: 1)
        merger.forward(.cameraBack(device: "/dev/video4", gap: 0.5), camera: 1)
        merger.forward(.deleted(DeletedFile(path: "m-1-0001.mp4", bytes: 3, rule: .keep)), camera: 0)
        merger.forward(.stopping(.maxDuration), camera: 0)
        let all = collected.all
        #expect(all.count == 5, "\(all)")
        guard all.count == 5 else { return }
        if case .segment(let file) = all[0] { #expect(file.device == "/dev/video1") } else { Issue.record("\(all[0])") }
        if case .cameraLost(let text, let camera) = all[1] {
            #expect(text == "camera 2 (/dev/video1): camera lost: gone")
            #expect(camera == RunCamera(index: 2, device: "/dev/video1"))
        } else { Issue.record("\(all[1])") }
        if case .cameraBack(let device, _, let camera) = all[2] {
            #expect(device == "/dev/video4" && camera == RunCamera(index: 2, device: "/dev/video1"))
        } else { Issue.record("\(all[2])") }
        if case .deleted(let file) = all[3] { #expect(file.device == "/dev/video0") } else { Issue.record("\(all[3])") }
        if case .stopping(let reason) = all[4] { #expect(reason == .maxDuration) } else { Issue.record("\(all[4])") }
    }

    @Test func resultListsEveryCamerasMoviesFirstWithTheirDevices() throws {
        let merger = CameraEventMerger(devices: ["/dev/video0", "/dev/video1"]) { _ in }
        let still = ResultFile(path: "m-1-still-0001.jpg", kind: "still", duration: nil, frames: nil, bytes: 1)
        let first = RecordingResult(reason: .maxDuration, files: [movie("m-1.mp4"), still], droppedFrames: 1)
        let second = RecordingResult(reason: .maxDuration, files: [movie("m-2.mp4")], droppedFrames: 2)
        let result = try merger.merge([.success(first), .success(second)])
        #expect(result.files.map(\.path) == ["m-1.mp4", "m-2.mp4", "m-1-still-0001.jpg"])
        #expect(result.files.map(\.device) == ["/dev/video0", "/dev/video1", "/dev/video0"])
        #expect(result.reason == .maxDuration && result.droppedFrames == 3)
    }

    @Test func aLostCameraIsTheRunsReason() throws {
        let merger = CameraEventMerger(devices: ["/dev/video0", "/dev/video1"]) { _ in }
        var lost = RecordingResult(reason: .cameraLost, files: [movie("m-2.mp4", frames: 40)], droppedFrames: 0)
        lost.message = "camera lost"
        let result = try merger.merge([.success(RecordingResult(reason: .maxDuration, files: [movie("m-1.mp4")], droppedFrames: 0)),
                                       .success(lost)])
        #expect(result.reason == .cameraLost)
        #expect(result.message == "camera 2 (/dev/video1): camera lost")
    }

    @Test func aFailureBeforeAnyMovieIsThrownWithItsKindAndCamera() {
        let merger = CameraEventMerger(devices: ["/dev/video0", "/dev/video1"]) { _ in }
        let stopped = RecordingResult(reason: .control, files: [], droppedFrames: 0)
        #expect(throws: CamrecError(.cameraBusy, "camera 2 (/dev/video1): the camera is busy")) {
            try merger.merge([.success(stopped), .failure(CamrecError(.cameraBusy, "the camera is busy"))])
        }
    }
}

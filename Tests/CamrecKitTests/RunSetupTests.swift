@testable import CamrecKit
import Foundation
import GStreamer
import Testing

/// Issue 31: one place configures a run's pipelines for every topology. Each plan here is
/// the planner's; the cameras are values (no device is opened); the encoder is picked from
/// this machine's GStreamer (x264enc, as `--codec h264 --encoder x264enc` asks).
@Suite struct RunSetupTests {
    static let yuyv = CameraFormat(fourcc: "YUYV", caps: "video/x-raw,format=YUY2,width=640,height=480,framerate=30/1",
                                   size: FrameSize(width: 640, height: 480), rate: FrameRateValue(numerator: 30, denominator: 1),
                                   decoding: .none, reason: "raw")

    static func camera(_ path: String, rate: Int = 30) -> CameraResolver.Resolution {
        var format = yuyv
        format.rate = FrameRateValue(numerator: rate, denominator: 1)
        return CameraResolver.Resolution(source: .camera(path: path, format: format), size: format.size, rate: format.rate)
    }

    static func settings(_ change: (inout RunSettings) -> Void = { _ in }) -> RunSettings {
        var settings = RunSettings(maxDuration: .seconds(5), container: .mp4,
                                   encoding: EncodingRequest(codec: .encode(.h264), encoder: .named("x264enc"), keyframeInterval: 1))
        change(&settings)
        return settings
    }

    static func request(_ devices: [String], _ change: (inout RecordingRequest) -> Void = { _ in }) throws -> RecordingRequest {
        let stills = try StillSettings.resolve(pattern: nil, format: nil, every: nil, moviePath: "/tmp/run.mp4")
        var request = RecordingRequest(output: "/tmp/run.mp4", devices: devices, stills: stills)
        change(&request)
        return request
    }

    static func setup(_ request: RecordingRequest, cameras: [CameraResolver.Resolution],
                      settings: RunSettings = settings(), sound: AudioSettings? = nil) throws -> RunSetup {
        try Runtime.initialize()
        let plan = try RecordingPlanner.plan(request, devicePaths: cameras.map(\.source.deviceName))
        return try RunSetup.make(plan: plan, cameras: cameras, devices: request.devices.isEmpty ? ["0"] : request.devices,
                                 settings: settings) { _ in sound }
    }

    @Test func oneCameraRecordsThePlansMovieWithTheSettings() throws {
        let setup = try Self.setup(Self.request([]), cameras: [Self.camera("/dev/video0")], settings: Self.settings {
            $0.preview = PreviewSettings(stopsRecording: true)
            $0.settle = .seconds(2)
        })
        #expect(setup.topology == .oneCamera)
        #expect(setup.canvas == nil)
        #expect(setup.recorded.count == 1)
        let config = setup.cameras[0]
        #expect(config.outputPath == "/tmp/run.mp4")
        #expect(config.encoder.factory == "x264enc")
        #expect(config.preview?.stopsRecording == true)
        #expect(config.settle == .seconds(2))
        #expect(config.startBarrier == nil && config.composition == nil)
    }

    @Test func severalCamerasGetAMovieEachAndOnlyTheFirstHasTheSound() throws {
        let sound = AudioSettings(input: AudioInput(element: .test, reason: "test"), container: .mp4)
        let setup = try Self.setup(Self.request(["/dev/video0", "/dev/video2"]),
                                   cameras: [Self.camera("/dev/video0"), Self.camera("/dev/video2")], sound: sound)
        #expect(setup.topology == .separateMovies(allOrNothing: false))
        #expect(setup.cameras.map(\.outputPath) == ["/tmp/run-1.mp4", "/tmp/run-2.mp4"])
        #expect(setup.cameras[0].audio != nil)
        #expect(setup.cameras[1].audio == nil)
        #expect(setup.template.text == PipelineTemplate.record.text)
    }

    @Test func aCanvasRecordsOneMovieAndItsCamerasKeepTheirOwnStills() throws {
        var setup = try Self.setup(Self.request(["/dev/video0", "/dev/video2"]) { $0.layout = .stacked },
                                   cameras: [Self.camera("/dev/video0"), Self.camera("/dev/video2")],
                                   settings: Self.settings { $0.preview = PreviewSettings(stopsRecording: false) })
        let canvas = try #require(setup.canvas)
        #expect(setup.recorded.count == 1)
        #expect(canvas.outputPath == "/tmp/run.mp4")
        #expect(canvas.composition?.cameras.map(\.path) == ["/dev/video0", "/dev/video2"])
        #expect(canvas.startBarrier != nil)
        #expect(setup.template.text == PipelineTemplate.compose.text)
        #expect(setup.cameras[0].stills.naming.path(1) != canvas.stills.naming.path(1))
        // No window opened (no display): the canvas has no preview branch.
        setup.showPreviews(0)
        #expect(setup.canvas?.preview == nil)
    }

    /// Every still names its camera (each camera's own: its card; the canvas's: all of
    /// them) and carries --location.
    @Test func stillsNameTheirCameraAndPlace() throws {
        let place = GeoLocation(latitude: 48.8584, longitude: 2.2945, altitude: 35)
        var left = Self.camera("/dev/video0"), right = Self.camera("/dev/video2")
        left.name = "Left Cam"
        left.maker = "Logitech"
        right.name = "Right Cam"
        let own = try Self.setup(Self.request(["/dev/video0", "/dev/video2"]) { $0.location = place }, cameras: [left, right])
        #expect(own.cameras.map(\.stills.tags) == [StillTags(camera: "Left Cam", maker: "Logitech", location: place),
                                                   StillTags(camera: "Right Cam", location: place)])
        let composed = try Self.setup(Self.request(["/dev/video0", "/dev/video2"]) { $0.layout = .sideBySide }, cameras: [left, right])
        #expect(composed.canvas?.stills.tags == StillTags(camera: "Left Cam + Right Cam"))
        #expect(composed.canvas?.composition?.cameraStillTags.map(\.camera) == ["Left Cam", "Right Cam"])
    }

    @Test func theSameCameraTwiceOrTwoRatesAreRefused() throws {
        let twice = [Self.camera("/dev/video0"), Self.camera("/dev/video0")]
        #expect(throws: CamrecError.self) { try RunSetup.checkCameras(twice, devices: ["0", "video0"]) }
        let rates = [Self.camera("/dev/video0"), Self.camera("/dev/video2", rate: 15)]
        do {
            try RunSetup.checkCameras(rates, devices: ["0", "2"])
            Issue.record("two rates were accepted")
        } catch {
            #expect(error.kind == .usage)
            #expect(error.message.contains("give --fps"), "\(error.message)")
        }
    }

    @Test func aCanvasCameraBackNamesItself() throws {
        var setup = try Self.setup(Self.request(["/dev/video0", "/dev/video2"]) { $0.layout = .sideBySide },
                                   cameras: [Self.camera("/dev/video0"), Self.camera("/dev/video2")])
        setup.onCameraBack { camera, _ in ["controls of \(camera) set again"] }
        #expect(setup.canvas?.cameraBack?(1, "/dev/video4") == ["camera 2 (/dev/video4): controls of 1 set again"])
        #expect(setup.cameras[1].cameraBack?(0, "/dev/video4") == ["controls of 1 set again"])
    }

    @Test func controlsOfTheFirstCameraAreTheCanvasesToo() throws {
        var setup = try Self.setup(Self.request(["/dev/video0", "/dev/video2"]) { $0.layout = .grid },
                                   cameras: [Self.camera("/dev/video0"), Self.camera("/dev/video2")])
        let set = [AppliedControl(name: "brightness", value: "10", driverControls: [:])]
        setup.setControls(set, camera: 0)
        #expect(setup.canvas?.controls == set)
        setup.setControls([], camera: 1)
        #expect(setup.canvas?.controls == set)
    }
}

@testable import CamrecKit
import Testing

/// The composing pipeline as text: one branch per camera into the canvas, each cell where
/// its rectangle is, and the normal recording tail (no GStreamer needed).
struct CompositionTests {
    let rate = FrameRateValue(numerator: 30, denominator: 1)
    let mjpeg = CameraFormat(fourcc: "MJPG", caps: "image/jpeg,width=1280,height=720,framerate=30/1",
                             size: FrameSize(width: 1280, height: 720), rate: FrameRateValue(numerator: 30, denominator: 1),
                             decoding: .jpeg, reason: "")
    let yuyv = CameraFormat(fourcc: "YUYV", caps: "video/x-raw,format=YUY2,width=640,height=480,framerate=30/1",
                            size: FrameSize(width: 640, height: 480), rate: FrameRateValue(numerator: 30, denominator: 1),
                            decoding: .none, reason: "")

    func composed(_ layout: CanvasLayout = .stacked, orientation: Orientation = .identity) -> RecordConfig {
        let composition = Composition(layout: layout, canvas: CanvasLayout.defaultCanvas,
                                      cameras: [("/dev/video0", mjpeg), ("/dev/video2", yuyv)], rate: rate, orientation: orientation)
        var config = RecordConfig(source: .camera(path: "/dev/video0", format: mjpeg), size: CanvasLayout.defaultCanvas, rate: rate,
                                  maxDuration: .seconds(3), outputPath: "both.mp4", container: .mp4, overwrite: false,
                                  encoder: EncoderSettings())
        config.composition = composition
        config.startBarrier = composition.canvasMember
        return config
    }

    @Test(arguments: [Orientation.identity, Orientation(rotation: .clockwise, flip: .horizontal)])
    func aBranchNamesEveryElementItMakesSoThatItCanBeTakenOut(_ orientation: Orientation) throws {
        let composition = try #require(composed(orientation: orientation).composition)
        for index in composition.cameras.indices {
            let branch = composition.branch(index, path: composition.cameras[index].path, quote: { $0 }, into: nil)
            let names = branch.split(separator: " ").filter { $0.hasPrefix("name=") }.map { String($0.dropFirst(5)) }
            // Every element: no "! caps !" or bare element without a name between the links.
            let elements = branch.split(separator: "!").count   // the last link is the still appsink, after the tee
            #expect(names == composition.branchElements(index), "\(branch)")
            #expect(names.count == elements, "\(branch)")
            // Rebuilt as a bin, it ends unlinked (its ghost pad goes to a new compositor pad).
            #expect(!branch.contains("canvas.sink"))
        }
    }

    @Test func theComposingTemplateHasTheNamedElementsCamrecReaches() {
        let body = PipelineTemplate.compose.body
        for name in ["name=canvas", "name=t", "name=record", "name=stills", "start-time-selection=first"] {
            #expect(body.contains(name), "compose.pipeline lacks \(name)")
        }
        #expect(PipelineTemplate.compose.placeholders == ["cameras", "latency", "cells", "canvas", "picture", "encode", "output", "audio", "motion", "preview"])
    }

    @Test func eachCameraIsABranchScaledToItsRectangleIntoItsPad() throws {
        let line = try RecordPipeline(config: composed(), template: .compose).description(location: "both.partial.mp4")
        // Camera 1 (MJPEG 1280x720) in the top band: decoded, scaled to 1080x608 at y 176.
        // Every element is named after its camera, so that a branch can be taken out.
        #expect(line.contains("v4l2src device=/dev/video0 name=camera1 ! capsfilter name=format1 caps=image/jpeg,width=1280,height=720,framerate=30/1 ! queue name=cell1"))
        #expect(line.contains("! jpegdec name=decode1 ! tee name=whole1 ! videoscale name=scale1 ! videoconvert name=convert1 ! capsfilter name=fit1 caps=video/x-raw,format=I420,colorimetry=bt601,width=1080,height=608,pixel-aspect-ratio=1/1 ! canvas.sink_0"))
        // Its newest whole (decoded, unscaled) frame waits in an appsink for its own stills.
        #expect(line.contains("whole1. ! appsink name=still1 drop=true max-buffers=1 sync=false async=false"))
        #expect(line.contains("whole2. ! appsink name=still2 drop=true max-buffers=1 sync=false async=false"))
        #expect(line.contains("sink_0::xpos=0 sink_0::ypos=176 sink_0::width=1080 sink_0::height=608"))
        // Camera 2 (raw 640x480, 4:3) in the bottom band: 1080x810 at y 960 + 74.
        #expect(line.contains("v4l2src device=/dev/video2 name=camera2 ! capsfilter name=format2 caps=video/x-raw,format=YUY2,width=640,height=480,framerate=30/1 ! queue name=cell2"))
        #expect(!line.contains("cell2 max-size-buffers=3 max-size-bytes=0 max-size-time=0 leaky=downstream ! jpegdec"))
        #expect(line.contains("sink_1::xpos=0 sink_1::ypos=1034 sink_1::width=1080 sink_1::height=810"))
        // The canvas, then the one recording tail.
        #expect(line.contains("latency=33333333"))
        #expect(line.contains("! video/x-raw,format=I420,colorimetry=bt601,width=1080,height=1920,framerate=30/1,pixel-aspect-ratio=1/1 ! tee name=t"))
        #expect(line.contains("queue name=record"))
        #expect(line.contains("name=encoder") && line.contains("mp4mux") && line.contains("location=\"both.partial.mp4\""))
        #expect(!line.contains("name=src"))
    }

    /// `--rotate` with `--layout`: each camera is turned in its own branch, before its tee
    /// (its own stills are turned too), and its rectangle fits the turned picture; the
    /// canvas itself is not turned.
    @Test func aTurnedCameraIsTurnedInItsBranchAndItsRectangleFitsIt() throws {
        let config = composed(orientation: Orientation(rotation: .clockwise))
        let line = try RecordPipeline(config: config, template: .compose).description(location: "both.partial.mp4")
        #expect(line.contains("! jpegdec name=decode1 ! videoconvert name=turnconvert1 ! capsfilter name=turnformat1 caps=video/x-raw,format=I420"
            + " ! camrecflip name=orient1 method=90r ! tee name=whole1"), "\(line)")
        #expect(line.contains("! camrecflip name=orient2 method=90r ! tee name=whole2"), "\(line)")
        // 1280x720 turned is 720x1280: in the top band (1080x960) it is 540x960, centred.
        #expect(line.contains("sink_0::xpos=270 sink_0::ypos=0 sink_0::width=540 sink_0::height=960"), "\(line)")
        #expect(config.composition?.report.cameras.map(\.size) == ["720x1280", "480x640"])
        // Nothing turns the canvas: one camrecflip per camera, none after the compositor.
        #expect(line.components(separatedBy: "camrecflip").count == 3)
    }

    /// `--overlay` and `--overlay-image` with `--layout`: drawn once, on the canvas, before its tee.
    @Test func overlaysAreDrawnOnTheCanvas() throws {
        var config = composed()
        config.picture = PictureSettings(text: try OverlayText("%H:%M:%S"))
        let line = try RecordPipeline(config: config, template: .compose).description(location: "both.partial.mp4")
        #expect(line.contains("pixel-aspect-ratio=1/1 ! textoverlay name=overlay "), "\(line)")
        #expect(line.contains("xpad=22 ypad=22 ! tee name=t"), "\(line)")
        #expect(!line.contains("camrecflip"))
    }

    @Test func theReportListsEachCamerasRectangle() {
        let report = composed(.sideBySide).composition?.report
        #expect(report?.name == "side-by-side" && report?.canvas == "1080x1920")
        #expect(report?.cameras == [
            LayoutReport.Camera(index: 1, device: "/dev/video0", size: "1280x720", x: 0, y: 808, width: 540, height: 304),
            LayoutReport.Camera(index: 2, device: "/dev/video2", size: "640x480", x: 540, y: 758, width: 540, height: 404),
        ])
    }

    /// A placed pip names itself as --layout takes it; the inset sits in its corner.
    @Test func thePipReportNamesItsCornerAndSize() {
        let report = composed(.pip(PipPlacement(corner: .topLeft, percent: 30))).composition?.report
        #expect(report?.name == "pip:top-left:30%")
        // 30% of 1080 is 324 wide, 26 pixels (1080 / 40, even) from the top and left edges.
        #expect(report?.cameras == [
            LayoutReport.Camera(index: 1, device: "/dev/video0", size: "1280x720", x: 0, y: 656, width: 1080, height: 608),
            LayoutReport.Camera(index: 2, device: "/dev/video2", size: "640x480", x: 26, y: 26, width: 324, height: 242),
        ])
        #expect(composed(.pip(.standard)).composition?.report.name == "pip")
    }

    @Test func theCanvasIsTheStartBarriersLastMember() {
        let config = composed()
        #expect(config.startBarrier?.camera == 2)
        let barrier = config.startBarrier?.barrier
        // The canvas holds its frames until both cameras have one.
        #expect(config.startBarrier?.admits(at: 1_000_000_000) == false)
        _ = barrier?.admits(camera: 0, at: 1_010_000_000)
        #expect(config.startBarrier?.admits(at: 1_020_000_000) == false)
        _ = barrier?.admits(camera: 1, at: 1_030_000_000)
        #expect(barrier?.start == 1_030_000_000 + 33_333_333 / 2)
        #expect(config.startBarrier?.admits(at: 1_040_000_000) == false)
        #expect(config.startBarrier?.admits(at: 1_050_000_000) == true)
    }
}

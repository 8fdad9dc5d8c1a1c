import GStreamer

/// Several cameras composed onto one canvas, recorded as one movie (`--layout`): each
/// camera's branch (`camera1`, `camera2`, … : v4l2src, decoding, scaling to its rectangle)
/// feeds a `compositor` named "canvas", whose frames go through the normal recording
/// branch (the exact `--max-duration` gate, encoder, muxer).
///
/// The compositor makes one canvas frame per interval of the movie's rate, on its own
/// timeline, from each camera's newest frame at that instant; the movie starts with the
/// first canvas frame on which every camera has a picture (`StartBarrier`, with the
/// canvas as its last member).
public struct Composition: Sendable {
    /// One camera on the canvas.
    public struct Camera: Sendable, Equatable {
        /// The camera's device path.
        public var path: String
        /// The camera format camrec chose for it.
        public var format: CameraFormat
        /// Where its picture lies on the canvas.
        public var rect: PixelRect
        /// The movie played in its place (`--device file:PATH`; `path` is then "file:PATH"); nil for a camera.
        public var movie: MovieSource? = nil
    }

    /// How the canvas is shared.
    public let layout: CanvasLayout
    /// The canvas (the movie's frame size).
    public let canvas: FrameSize
    /// The cameras, in `--device` order, each with its rectangle.
    public internal(set) var cameras: [Camera]
    /// How each camera's own stills are named (one per camera, in order), taken beside
    /// the composed still at every trigger; empty: only the composed still.
    public var cameraStillNaming: [StillNaming] = []
    /// Each camera's own stills' EXIF camera and place, in order (beside `cameraStillNaming`).
    public var cameraStillTags: [StillTags] = []
    /// `--all-or-nothing`: a camera lost mid-run ends the movie. Otherwise its cell turns
    /// black and the movie goes on with the others (until the last one is lost).
    public var allOrNothing = false
    /// Holds the movie until every camera has a frame on the canvas: cameras 0…N−1 offer
    /// their frames, the canvas is member N.
    let barrier: StartBarrier
    /// `--rotate`, `--flip`, `--mirror`: done to every camera's picture before it is
    /// placed (its rectangle fits the turned picture) and before its own stills are taken.
    public let orientation: Orientation
    /// `--mask`, `--mask-image`: filled in every camera's picture (in its own pixels, after
    /// `orientation`) before it is placed and before its own stills are taken.
    public let mask: PrivacyMask

    /// The composition of `cameras` (path and chosen format, in order) on `canvas` with
    /// `layout`, for a movie at `rate`, each camera's picture turned by `orientation`, then
    /// masked by `mask`.
    public init(layout: CanvasLayout, canvas: FrameSize, cameras: [(path: String, format: CameraFormat)], rate: FrameRateValue,
                orientation: Orientation = .identity, mask: PrivacyMask = .none) {
        precondition(!cameras.isEmpty, "a composition needs a camera")
        self.layout = layout
        self.canvas = canvas
        self.orientation = orientation
        self.mask = mask
        let rects = layout.rectangles(canvas: canvas, sizes: cameras.map { orientation.outputSize($0.format.size) })
        self.cameras = zip(cameras, rects).map { Camera(path: $0.path, format: $0.format, rect: $1) }
        barrier = StartBarrier(cameras: cameras.count + 1, frameInterval: UInt64(1e9 / max(rate.framesPerSecond, 1)))
    }

    /// The canvas's place at the start barrier, for the recording's gate.
    public var canvasMember: StartBarrier.Member { StartBarrier.Member(barrier: barrier, camera: cameras.count) }

    /// The layout as `started` and the result report it.
    public var report: LayoutReport {
        LayoutReport(name: layout.name, canvas: canvas.description, cameras: cameras.enumerated().map { index, camera in
            LayoutReport.Camera(index: index + 1, device: camera.path, size: orientation.outputSize(camera.format.size).description,
                                x: camera.rect.x, y: camera.rect.y, width: camera.rect.width, height: camera.rect.height)
        })
    }

    /// Fills the composing template's own placeholders: {cameras} (one branch per camera
    /// into the canvas), {cells} (each compositor pad's rectangle), {canvas} (the canvas
    /// caps) and {latency}. `quote` quotes a device path for the parser or the shell.
    func values(rate: FrameRateValue, quote: (String) -> String) -> [String: String] {
        let fraction = "\(rate.numerator)/\(rate.denominator)"
        var branches: [String] = []
        var cells: [String] = []
        for (index, camera) in cameras.enumerated() {
            branches.append(branch(index, path: camera.path, quote: quote, into: "canvas.sink_\(index)"))
            let pad = "sink_\(index)::"
            // A movie's cell keeps its last frame once it ended, for the canvas frames made
            // while the cameras are ended after it (not a black cell).
            let held = camera.movie == nil ? "" : " \(pad)repeat-after-eos=true"
            cells.append("\(pad)xpos=\(camera.rect.x) \(pad)ypos=\(camera.rect.y) \(pad)width=\(camera.rect.width) \(pad)height=\(camera.rect.height)" + held)
        }
        // Every cell and the canvas in one colour matrix (BT.601, limited range, as one
        // decoded camera is recorded), converted on each camera's thread while it is
        // scaled: the compositor then blends without converting, and the encoder's
        // videoconvert has nothing to do.
        // One frame interval of slack: a camera's frame that is a little late still makes
        // its canvas frame.
        let latency = UInt64(1e9 / max(rate.framesPerSecond, 1))
        return [
            "cameras": branches.joined(separator: " "),
            "cells": cells.joined(separator: " "),
            "canvas": "video/x-raw,format=I420,colorimetry=\(colorimetry),width=\(canvas.width),height=\(canvas.height),framerate=\(fraction),pixel-aspect-ratio=1/1",
            "latency": "\(latency)",
        ]
    }

    /// Camera `index`'s (0-based) branch, from the camera at `path` to its rectangle:
    /// linked `into` the canvas's pad, or (nil) ending unlinked (a bin's ghost pad, for a
    /// camera that came back). Every element is named after the camera's number
    /// (`branchElements`), so that a branch can be taken out of a running pipeline.
    func branch(_ index: Int, path: String, quote: (String) -> String, into pad: String?) -> String {
        let camera = cameras[index]
        let number = index + 1
        let decode = switch camera.format.decoding {
        case .none: ""
        case .jpeg: "! jpegdec name=decode\(number) "
        case .h264: "! h264parse name=parse\(number) ! avdec_h264 name=decode\(number) "
        }
        // Turned and mirrored (camrec's camrecflip, which takes I420) before the tee: the
        // camera's own stills show its picture as the canvas does.
        let turn = orientation.isIdentity ? "" : "! videoconvert name=turnconvert\(number) ! capsfilter name=turnformat\(number)"
            + " caps=video/x-raw,format=I420 ! \(PictureSettings.orientElement) name=orient\(number) method=\(orientation.videoDirection) "
        // Masked (camrecmask, in place, in whatever raw format the branch carries) after the
        // turn, before the tee: the canvas and the camera's own stills never show what it hides.
        let masking = mask.isEmpty ? "" : "! " + mask.element(name: "mask\(number)", frame: orientation.outputSize(camera.format.size),
                                                               quote: quote) + " "
        // A queue per camera: its decoding and scaling run on their own thread, and the
        // camera's capture thread never waits for the canvas. After decoding, a tee keeps
        // the camera's newest whole frame in an appsink for its own stills (it holds one
        // frame and drops the rest: no work unless a still is asked for).
        // A movie's frames come from camrec's own decoding (MovieFeeder), into an appsrc.
        let source = camera.movie?.element ?? "v4l2src device=\(quote(path))"
        return "\(source) name=camera\(number) ! capsfilter name=format\(number) caps=\(camera.format.caps)"
            + " ! queue name=cell\(number) max-size-buffers=3 max-size-bytes=0 max-size-time=0 leaky=downstream \(decode)\(turn)\(masking)"
            + "! tee name=whole\(number) ! videoscale name=scale\(number) ! videoconvert name=convert\(number)"
            + " ! capsfilter name=fit\(number) caps=video/x-raw,format=I420,colorimetry=\(colorimetry),width=\(camera.rect.width),height=\(camera.rect.height),"
            + "pixel-aspect-ratio=1/1" + (pad.map { " ! " + $0 } ?? "")
            + " whole\(number). ! appsink name=\(Self.stillSinkName(index)) drop=true max-buffers=1 sync=false async=false wait-on-eos=false"
    }

    /// The names of the elements of camera `index`'s (0-based) branch, as `branch` makes it.
    func branchElements(_ index: Int) -> [String] {
        let number = index + 1
        let decoding: [String] = switch cameras[index].format.decoding {
        case .none: []
        case .jpeg: ["decode\(number)"]
        case .h264: ["parse\(number)", "decode\(number)"]
        }
        let turning = orientation.isIdentity ? [] : ["turnconvert\(number)", "turnformat\(number)", "orient\(number)"]
        let masking = mask.isEmpty ? [] : ["mask\(number)"]
        return ["camera\(number)", "format\(number)", "cell\(number)"] + decoding + turning + masking
            + ["whole\(number)", "scale\(number)", "convert\(number)", "fit\(number)", Self.stillSinkName(index)]
    }

    /// The appsink holding camera `index`'s (0-based) newest whole frame, for its stills.
    static func stillSinkName(_ index: Int) -> String { "still\(index + 1)" }

    /// Has the compositor say which camera frame each canvas frame is made of
    /// ("samples-selected", on its aggregating thread), into `selections`.
    func watchSelections(in pipeline: Pipeline) throws(GStreamerError) -> (CanvasSelections, SignalToken) {
        let canvas = try pipeline.element(named: "canvas")
        try canvas.set("emit-signals", true)
        var pads: [Pad] = []
        for index in cameras.indices { pads.append(try canvas.staticPad("sink_\(index)")) }
        let selections = CanvasSelections(cameras: cameras.count, pads: pads)
        let token = try canvas.connect("samples-selected") { arguments in
            guard let pts = arguments.uint(2) else { return }
            selections.record(canvas: pts, cameraFrames: selections.pads.map { canvas.peekNextSample($0)?.timing?.pts })
        }
        return (selections, token)
    }

    /// Has every camera's branch offer its frames' capture times to the start barrier
    /// (frames are never dropped there: the canvas frames are held at the gate).
    func installStartProbes(in pipeline: Pipeline) throws(GStreamerError) -> [ProbeToken] {
        var tokens: [ProbeToken] = []
        for index in cameras.indices {
            let pad = try pipeline.element(named: "camera\(index + 1)").staticPad("src")
            let barrier = barrier
            tokens.append(pad.addProbe(.buffer) { info in
                // Once the start is fixed the probe has nothing left to say: it leaves the
                // camera's streaming thread rather than take the barrier's lock every frame.
                guard barrier.start == nil else { return .remove }
                if let pts = info.buffer?.pts { _ = barrier.admits(camera: index, at: pts &+ pipeline.baseTime) }
                return .pass
            })
        }
        return tokens
    }
}

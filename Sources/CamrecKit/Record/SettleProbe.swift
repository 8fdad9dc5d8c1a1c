import GStreamer
import V4L2

extension RecordingSession {
    /// With `--settle`, a probe at the encoder's input (decoded I420 frames for every camera
    /// format) that measures each settling frame's brightness for the gate and drops it, so
    /// that the movie starts with the first frame after the picture settled (its brightness,
    /// and its autofocus where the camera reports it).
    static func installSettleProbe(config: RecordConfig, pipeline: Pipeline, gate: FrameGate) throws(CamrecError) -> ProbeToken? {
        guard config.settle.nanoseconds > 0 else { return nil }
        let pad: Pad
        do {
            pad = try pipeline.element(named: "encoder").staticPad("sink")
        } catch {
            throw CamrecError(.usage, "the pipeline template needs its encoder named 'encoder' for --settle (\(error))")
        }
        if let composition = config.composition { return installCanvasSettleProbe(composition, pad: pad, gate: gate) }
        let pixels = config.size.width * config.size.height
        // A camera that reports its autofocus state (V4L2_CID_AUTO_FOCUS_STATUS) is also
        // waited for while it searches: read through a descriptor of our own, once per frame.
        var focus: VideoDevice?
        if case .camera(let path, _) = config.source, let device = try? VideoDevice(path: path),
           device.autoFocusBusy() != nil {
            focus = device
        }
        return pad.addProbe(.buffer) { [focus] info in
            guard let buffer = info.buffer else { return .pass }
            let settling = gate.measureSettling(pts: buffer.pts) {
                buffer.withBytes { ExposureSettler.meanLuma($0, pixels: pixels) } ?? 0
            } focusBusy: {
                focus?.autoFocusBusy() ?? false
            }
            if settling { return .drop }
            // Once the window is over no frame is held back: the probe (and the descriptor
            // it reads the focus through) goes, rather than taking the gate's lock per frame.
            return gate.settleWindowOver ? .remove : .pass
        }
    }

    /// `--settle` with `--layout`: the encoder's input is the canvas, on which each camera
    /// fills its own rectangle. Each camera's picture is measured on its own
    /// (`CanvasBrightness`, read through the frame's layout: its `GstVideoMeta`, or the
    /// negotiated caps' default strides), and the canvas is stable only when every camera's
    /// picture is and no camera's autofocus is searching.
    private static func installCanvasSettleProbe(_ composition: Composition, pad: Pad, gate: FrameGate) -> ProbeToken {
        let cells = CanvasBrightness(rects: composition.cameras.map(\.rect))
        // Each camera that reports its autofocus state, through a descriptor of our own.
        let focus: [VideoDevice] = composition.cameras.compactMap { camera in
            guard let device = try? VideoDevice(path: camera.path), device.autoFocusBusy() != nil else { return nil }
            return device
        }
        // The probe holds the pad (for its caps) until it goes: at the end of the window,
        // or when the session removes it.
        return pad.addProbe(.buffer) { [focus] info in
            guard let buffer = info.buffer else { return .pass }
            let settling = gate.measureSettling(pts: buffer.pts) {
                guard let layout = buffer.videoMeta ?? pad.currentCaps?.videoLayout else { return [] }
                return buffer.withBytes { cells.means($0, layout: layout) } ?? []
            } focusBusy: {
                focus.contains { $0.autoFocusBusy() ?? false }
            }
            if settling { return .drop }
            return gate.settleWindowOver ? .remove : .pass
        }
    }
}

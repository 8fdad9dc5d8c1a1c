import GStreamer

extension RecordingSession {
    /// With `--settle`, a probe at the encoder's input (decoded I420 frames for every camera
    /// format) that measures each settling frame's brightness for the gate and drops it, so
    /// that the movie starts with the first frame after the picture settled.
    static func installSettleProbe(config: RecordConfig, pipeline: Pipeline, gate: FrameGate) throws(CamrecError) -> ProbeToken? {
        guard config.settle.nanoseconds > 0 else { return nil }
        let pad: Pad
        do {
            pad = try pipeline.element(named: "encoder").staticPad("sink")
        } catch {
            throw CamrecError(.usage, "the pipeline template needs its encoder named 'encoder' for --settle (\(error))")
        }
        let pixels = config.size.width * config.size.height
        return pad.addProbe(.buffer) { info in
            guard let buffer = info.buffer else { return .pass }
            let settling = gate.measureSettling(pts: buffer.pts) {
                buffer.withBytes { ExposureSettler.meanLuma($0, pixels: pixels) } ?? 0
            }
            return settling ? .drop : .pass
        }
    }
}

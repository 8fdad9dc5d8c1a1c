extension RecordingStart {
    /// The `started` line of a recording of `config`: its movie at `path` (written at
    /// `partialPath`), the pipeline `commandLine` runs, and the stream at `serveURL`.
    init(config: RecordConfig, path: String, partialPath: String, commandLine: String, serveURL: String?) {
        let device: String
        let format: String
        let reason: String?
        switch config.source {
        case .testPattern:
            (device, format, reason) = ("test", "test", nil)
        case .camera(let path, let cameraFormat):
            (device, format, reason) = (path, cameraFormat.fourcc, cameraFormat.reason)
        case .movie(let movie):
            (device, format, reason) = (movie.deviceName, "movie", movie.format.reason + (movie.loop ? ", looped" : ""))
        }
        let encoder = config.encoder
        self.init(
            path: path, partialPath: partialPath, device: device, format: format,
            size: config.picture.orientation.outputSize(config.size).description, fps: config.rate.description, formatReason: reason,
            maxDuration: config.maxDuration?.seconds, pipeline: commandLine,
            controls: config.controls.isEmpty ? nil : config.controls)
        codec = encoder.codec.rawValue
        self.encoder = encoder.factory ?? "copy"
        hardware = encoder.hardware
        encodingReason = encoder.reason
        bitrate = encoder.targetBitrate(size: config.size, rate: config.rate)
        effort = encoder.effort?.label
        // Every Motion JPEG frame is a keyframe.
        let gop = encoder.codec == .mjpeg ? 1 : encoder.gop(rate: config.rate)
        let frames = encoder.isPassthrough ? encoder.cameraKeyframePeriod : gop
        keyframeInterval = frames.map { Double($0) / config.rate.framesPerSecond }
        audio = config.audio.map(StartedAudio.init)
        if config.standby { standby = true }
        self.serveURL = serveURL
        timelapse = config.timelapse?.report(movieRate: config.rate)
    }
}

import GStreamer

/// A recording's live outputs fed from its pipeline: the preview window (`--preview`,
/// with the REC or STANDBY status) and the RTSP server (`--serve`, picture and sound),
/// each from its appsink.
struct LiveFeeds {
    private let tokens: [AppSinkCallbacksToken]

    /// Feeds `window` and `server` (either may be nil) from `elements`' appsinks; the
    /// window's status shows the time `gate` recorded against `config`'s limit.
    init(window: PreviewWindow?, server: LiveStreamServer?, elements: RecordingElements, config: RecordConfig,
         gate: FrameGate) {
        var tokens: [AppSinkCallbacksToken] = []
        if let window, let sink = elements.preview {
            let (limit, standby) = (config.maxDuration?.seconds, config.standby)
            tokens.append(window.show(framesOf: sink) {
                standby ? PreviewStatus(label: "STANDBY")
                    : PreviewStatus(label: "REC", elapsed: gate.recordedSeconds(frameDuration: gate.frameDuration), limit: limit)
            })
        }
        if let server {
            if let sink = elements.serve { tokens.append(server.serve(framesOf: sink)) }
            if let sink = elements.serveSound { tokens.append(server.serve(soundOf: sink)) }
        }
        self.tokens = tokens
    }

    /// Stops feeding them.
    func remove() {
        for token in tokens { token.remove() }
    }
}

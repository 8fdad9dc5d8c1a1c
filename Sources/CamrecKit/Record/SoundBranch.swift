import GStreamer

/// The sound branch of a recording's pipeline (`AudioSettings.branch`): its gate, the
/// picture's delay that matches the encoder's priming, and the count of lost sound.
final class SoundBranch {
    /// The settings it was built from.
    let settings: AudioSettings
    /// Lets through the sound that belongs with the movie's frames.
    let gate = AudioGate()
    /// The source element ("audiosrc"): its errors are the sound source's.
    let source: Element
    /// `audiorate`, which counts the samples it added for lost sound.
    private let rate: Element
    private var tokens: [ProbeToken]
    /// How much later the picture goes into the muxer than it was captured: AAC's encoder
    /// puts 1024 samples of priming before the first real one, and the muxer does not tell
    /// players to skip them (GStreamer 1.22 writes no edit list for it), so the sound plays
    /// that much after its capture time; the picture is delayed by as much, and they meet.
    /// (Stamping the sound earlier instead would need negative times for a movie that
    /// starts within 21 ms of the pipeline.) Zero for Opus, whose pre-skip players honour.
    let videoOffset: UInt64

    /// Finds the branch in `pipeline` and installs its probes; nil without sound.
    static func install(_ settings: AudioSettings?, in pipeline: Pipeline) throws(CamrecError) -> SoundBranch? {
        guard let settings else { return nil }
        do {
            return try SoundBranch(settings: settings, pipeline: pipeline)
        } catch {
            throw CamrecError(.usage, "the pipeline template needs {audio} (a source named 'audiosrc', 'audiorate' and 'audioencoder') for --audio (\(error))")
        }
    }

    private init(settings: AudioSettings, pipeline: Pipeline) throws(GStreamerError) {
        self.settings = settings
        source = try pipeline.element(named: "audiosrc")
        rate = try pipeline.element(named: "audiorate")
        let gate = gate
        tokens = [try rate.staticPad("src").addProbe(.buffer) { info in
            guard let buffer = info.buffer else { return .pass }
            return gate.admit(pts: buffer.pts, duration: buffer.duration)
        }]
        videoOffset = UInt64(settings.codec.primingSamples) * 1_000_000_000 / UInt64(max(settings.rate, 1))
    }

    /// Milliseconds of sound lost by the source (xruns, a stalled server) and recorded as
    /// silence of the same length.
    var droppedMilliseconds: Int {
        let added = rate.unsignedProperty("add") ?? 0
        return Int(added * 1000 / UInt64(max(settings.rate, 1)))
    }

    /// Removes the probes and ends every wait of the gate.
    func remove() {
        gate.release()
        for token in tokens { token.remove() }
        tokens = []
    }
}

import GStreamer
import Synchronization

/// The sound branch of a recording's pipeline (`AudioSettings.branch`): its gate, the
/// picture's delay that matches the encoder's priming, and the count of lost sound.
final class SoundBranch {
    /// The settings it was built from.
    let settings: AudioSettings
    /// Lets through the sound that belongs with the movie's frames.
    let gate: AudioGate
    /// The source element ("audiosrc"): its errors are the sound source's.
    let source: Element
    /// `audiorate`, which counts the samples it added for lost sound.
    private let rate: Element
    /// Ends the branch once: at the movie's end, or when its source fails.
    private let ending: SoundEnding
    /// Keeps the source's sound on the system clock.
    private let clock: SoundClockProbe
    private var tokens: [ProbeToken]
    /// How much later the picture goes into the muxer than it was captured: AAC's encoder
    /// puts 1024 samples of priming before the first real one, and the muxer does not tell
    /// players to skip them (GStreamer 1.22 writes no edit list for it), so the sound plays
    /// that much after its capture time; the picture is delayed by as much, and they meet.
    /// (Stamping the sound earlier instead would need negative times for a movie that
    /// starts within 21 ms of the pipeline.) Zero for Opus, whose pre-skip players honour.
    let videoOffset: UInt64

    /// Finds the branch in `pipeline` and installs its probes; nil without sound.
    /// `length`: the movie's length when it has a limit (ns), where the sound ends.
    static func install(_ settings: AudioSettings?, in pipeline: Pipeline, length: UInt64?) throws(CamrecError) -> SoundBranch? {
        guard let settings else { return nil }
        do {
            return try SoundBranch(settings: settings, pipeline: pipeline, length: length)
        } catch {
            throw CamrecError(.usage, "the pipeline template needs {audio} (a source named 'audiosrc', 'audiorate' and 'audioencoder') for --audio (\(error))")
        }
    }

    private init(settings: AudioSettings, pipeline: Pipeline, length: UInt64?) throws(GStreamerError) {
        self.settings = settings
        gate = AudioGate(length: length)
        source = try pipeline.element(named: "audiosrc")
        rate = try pipeline.element(named: "audiorate")
        let ending = SoundEnding(encoderInput: try pipeline.element(named: "audioencoder").staticPad("sink"))
        self.ending = ending
        clock = try SoundClockProbe(source: source)
        let gate = self.gate
        let output = try rate.staticPad("src")
        tokens = [output.addProbe(.buffer) { info in
            guard let buffer = info.buffer else { return .pass }
            switch gate.admit(pts: buffer.pts, duration: buffer.duration) {
            case .pass:
                return .pass
            case .drop:
                // The sound is complete: the muxer learns so at once (splitmuxsink would
                // otherwise hold the picture back, waiting for sound that never comes).
                if gate.isComplete { ending.end() }
                return .drop
            case .part(let kept):
                // Twice a movie at most (its first and last buffer): the caps are read then.
                let format = output.currentCaps.flatMap(AudioFormat.init(caps:))
                guard let format, let pts = buffer.pts, let cut = SampleCut(pts: pts, kept: kept, rate: format.rate),
                      let part = buffer.audioFrames(skip: cut.skip, keep: cut.keep, format: format)
                else { return .drop }
                return .replace(part)
            }
        }]
        videoOffset = UInt64(settings.codec.primingSamples) * 1_000_000_000 / UInt64(max(settings.rate, 1))
    }

    /// Milliseconds of sound lost by the source (xruns, a stalled server) and recorded as
    /// silence of the same length.
    var droppedMilliseconds: Int {
        let added = rate.unsignedProperty("add") ?? 0
        return Int(added * 1000 / UInt64(max(settings.rate, 1)))
    }

    /// Ends the sound (its source failed or never delivered): the gate lets nothing more
    /// through and the encoder is told the stream ended, so the muxer does not wait for
    /// sound and finishes the movie with the sound it has. Called from the bus loop, which
    /// must never block: the end-of-stream event waits for the sound's streaming thread to
    /// leave the encoder, and that thread may be held downstream (the muxer waiting for
    /// the picture), so the event is sent from a thread of its own.
    func end() {
        gate.release()
        ending.endAsynchronously()
    }

    /// The picture is about to end (EOS is sent next): no more frames are let through
    /// `picture`, and the sound up to the end of its last frame is waited for (at most a
    /// second: it is captured by then), so that sound and picture end together.
    func endWithPicture(_ picture: FrameGate) {
        picture.close()
        if let end = picture.videoEnd {
            gate.close(at: end)
            _ = gate.waitUntilComplete(seconds: 1)
        }
        gate.release()
    }

    /// The camera ended its branch itself: the sound ends where its last frame ends.
    func endAtLastFrame(of picture: FrameGate) {
        picture.close()
        if let end = picture.videoEnd { gate.close(at: end) } else { end() }
    }

    /// How fast the sound card's clock runs against the system clock (ppm, positive: fast):
    /// the drift the sound clock has learnt.
    var clockPPM: Double { clock.clockPPM }

    /// Whether `end()` was called.
    var hasEnded: Bool { ending.hasEnded }

    /// Removes the probes and ends every wait of the gate.
    func remove() {
        gate.release()
        for token in tokens { token.remove() }
        tokens = []
        clock.remove()
    }
}

/// Sends end-of-stream into the sound encoder, once.
private final class SoundEnding: Sendable {
    private let encoderInput: Pad
    private let ended = Mutex(false)

    init(encoderInput: Pad) { self.encoderInput = encoderInput }

    /// Sends it from the calling thread (the sound's streaming thread).
    func end() {
        if claim() { encoderInput.send(.endOfStream()) }
    }

    /// Sends it from a thread of its own: the caller never waits for the streaming thread.
    func endAsynchronously() {
        guard claim() else { return }
        let encoderInput = encoderInput
        NamedThread.start("camrec-sound-end") { encoderInput.send(.endOfStream()) }
    }

    /// True for the first caller only.
    private func claim() -> Bool {
        ended.withLock { ended in
            defer { ended = true }
            return !ended
        }
    }

    var hasEnded: Bool { ended.withLock { $0 } }
}

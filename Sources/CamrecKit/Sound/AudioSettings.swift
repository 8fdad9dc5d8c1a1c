/// How a recording's sound is made: the source, the codec and its encoder, channels,
/// sample rate and bitrate.
public struct AudioSettings: Sendable, Equatable {
    /// Where the sound comes from.
    public var input: AudioInput
    /// The movie's sound codec.
    public var codec: AudioCodec
    /// Channels recorded: the source's own (a mono microphone stays mono), at most 2.
    public var channels: Int
    /// The sample rate encoded.
    public var rate: Int
    /// kbit/s.
    public var bitrate: Int

    /// Settings for `input` in `container`, at `bitrate` kbit/s (nil: the codec's default).
    public init(input: AudioInput, container: MediaContainer, bitrate: Int? = nil) {
        self.input = input
        codec = AudioCodec(container: container)
        channels = min(max(input.channels ?? 2, 1), 2)
        rate = codec.encodingRate(source: input.rate)
        self.bitrate = bitrate ?? codec.defaultBitrate(channels: channels)
    }

    /// The source element, in pipeline syntax, named "audiosrc". A sound server's or ALSA
    /// source does not provide the pipeline's clock: the pipeline runs on the system's
    /// monotonic clock, which the camera's timestamps are already on. The source stamps
    /// its sound by sample count (`slave-method=none`) and the recording's `SoundClock`
    /// places it on the system clock, correcting the sound card's drift sample by sample
    /// (GStreamer's `skew` slaving lets it grow to a whole ring buffer, then jumps).
    public func sourceElement(quote: (String) -> String) -> String {
        Self.element(input.element, name: "audiosrc", quote: quote)
    }

    /// `element` in pipeline syntax, named `name`. A mix is the movie's sound through its
    /// gain into an `audiomixer` named "soundmix" (the microphone's part is `mixInput`).
    static func element(_ element: AudioInput.Element, name: String, slaved: Bool = false, quote: (String) -> String) -> String {
        // A mixed microphone keeps to the clock by GStreamer's own slaving (the mixer
        // needs its sound on the clock; the recording's SoundClock corrects "audiosrc" only).
        let slaving = slaved ? "" : " slave-method=none"
        switch element {
        case .pulse(let device):
            return "pulsesrc name=\(name) provide-clock=false" + slaving + (device.map { " device=" + quote($0) } ?? "")
        case .alsa(let device):
            return "alsasrc name=\(name) provide-clock=false\(slaving) device=" + quote(device)
        case .test:
            // 10-ms buffers, as a sound server's.
            return "audiotestsrc name=\(name) is-live=true wave=sine freq=440 volume=0.2 samplesperbuffer=480"
        case .movie:
            // Filled by the movie's feeder (MovieFeeder), stamped when each buffer is due.
            return "appsrc name=\(name) is-live=true format=time do-timestamp=false max-bytes=1000000 min-latency=0 max-latency=1000000000 caps=\"\(MovieFeeder.soundCaps)\""
        case .mix(let path, _, let movieGain, _):
            return self.element(.movie(path: path), name: name, quote: quote)
                + " ! volume name=moviegain volume=\(movieGain) ! audiomixer name=soundmix"
        }
    }

    /// A mix's microphone part, into the mixer "soundmix" (empty for any other source).
    func mixInput(quote: (String) -> String) -> String {
        guard case .mix(_, let microphone, _, let gain) = input.element else { return "" }
        return " " + Self.element(microphone, name: "micsrc", slaved: true, quote: quote)
            + " ! queue name=micqueue max-size-buffers=0 max-size-bytes=0 max-size-time=1000000000"
            + " ! audioconvert ! audioresample ! \(MovieFeeder.soundCaps) ! volume name=micgain volume=\(gain) ! soundmix."
    }

    /// The sound branch, in pipeline syntax, ending in the muxer's sound pad `muxerPad`
    /// (e.g. "mux.audio_0"): source → queue → conversion to the encoder's channels and
    /// rate → `audiorate` (named "audiorate": lost samples become silence of the same
    /// length, so the sound never shifts; it counts them; `tolerance` 5 ms, below the 10 ms
    /// a source loses at once, instead of its 40-ms default) → with `level` (`--on-sound`),
    /// `level` named "soundlevel", which posts the sound's RMS every 50 ms → encoder (named
    /// "audioencoder") → muxer.
    public func branch(muxerPad: String, level: Bool = false, quote: (String) -> String) -> String {
        let raw = "audio/x-raw,channels=\(channels),rate=\(rate)"
        let sourceCaps = input.channels.map { " ! audio/x-raw,channels=\($0)" } ?? ""
        return sourceElement(quote: quote) + sourceCaps
            + " ! queue name=audioqueue max-size-buffers=0 max-size-bytes=0 max-size-time=10000000000"
            + " ! audioconvert ! audioresample ! " + raw + " ! audiorate name=audiorate skip-to-first=true tolerance=5000000"
            + (level ? " ! level name=soundlevel interval=\(SoundTriggerSettings.interval) post-messages=true" : "")
            + " ! \(codec.encoder) name=audioencoder \(codec.bitrateProperty(kilobits: bitrate)) ! " + muxerPad
            + mixInput(quote: quote)
    }
}

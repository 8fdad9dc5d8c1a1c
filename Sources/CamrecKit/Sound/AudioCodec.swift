/// The sound codec of a movie: AAC-LC in MP4 and MOV (what every player plays there),
/// Opus in Matroska (better sound for the bits, and Matroska stores its priming exactly).
public enum AudioCodec: String, Sendable, Equatable {
    case aac, opus

    /// The codec for a container.
    public init(container: MediaContainer) {
        self = container.isMatroska ? .opus : .aac
    }

    /// The encoder element. AAC: `avenc_aac` (FFmpeg's own encoder), chosen over `voaacenc`
    /// by measurement (docs/sound.md): at 128 kbit/s its sound is closer to the source
    /// (26 dB against 19 dB signal-to-noise on a chord test signal; voaacenc does not get
    /// better with more bits), its priming is the standard 1024 samples (voaacenc's is 1600),
    /// and the CPU it costs is small either way (0.027 s against 0.018 s per second of
    /// 48 kHz stereo).
    public var encoder: String {
        switch self {
        case .aac: "avenc_aac"
        case .opus: "opusenc"
        }
    }

    /// The Debian package holding `encoder`.
    public var package: String {
        switch self {
        case .aac: "gstreamer1.0-libav"
        case .opus: "gstreamer1.0-plugins-base"
        }
    }

    /// The encoder's bitrate property is in bit/s for both.
    public func bitrateProperty(kilobits: Int) -> String {
        "bitrate=\(kilobits * 1000)"
    }

    /// The sample rate to encode at for a source at `rate` (nil: unknown): AAC takes the
    /// source's rate when it is a standard one (no resampling), else 48 kHz; Opus always
    /// codes at 48 kHz (it resamples anything else internally, so camrec does it once).
    public func encodingRate(source rate: Int?) -> Int {
        switch self {
        case .opus: return 48000
        case .aac:
            guard let rate, Self.aacRates.contains(rate) else { return 48000 }
            return rate
        }
    }

    private static let aacRates: Set<Int> = [8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000]

    /// The default bitrate in kbit/s for `channels` (1 or 2): AAC 96/128, Opus 64/96.
    public func defaultBitrate(channels: Int) -> Int {
        switch self {
        case .aac: channels == 1 ? 96 : 128
        case .opus: channels == 1 ? 64 : 96
        }
    }

    /// Samples the encoder puts before the first real one (its priming), which the
    /// muxer does not tell players to skip: AAC's 1024. camrec stamps the encoded packets
    /// that much earlier, so that the first real sample plays at its capture time. Opus's
    /// pre-skip is written into Matroska by the encoder, and players skip it.
    public var primingSamples: Int {
        switch self {
        case .aac: 1024
        case .opus: 0
        }
    }
}

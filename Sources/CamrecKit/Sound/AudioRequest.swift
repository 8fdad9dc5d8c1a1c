/// What `-a, --audio SOURCE` asks for, before it is looked up on this machine.
public enum AudioRequest: Sendable, Equatable {
    /// No sound (the default).
    case none
    /// The system's default input: the sound server's default source, or ALSA's `default`
    /// when no sound server runs.
    case systemDefault
    /// The microphone of the camera being recorded (the sound device on the same USB device).
    case camera
    /// A tone, for trying camrec without a microphone (`audiotestsrc`).
    case test
    /// A sound-server (PulseAudio or PipeWire) source by name, e.g. `alsa_input.usb-…`.
    case server(String)
    /// An ALSA device, e.g. `hw:1,0` or `plughw:CARD=C920,DEV=0`.
    case alsa(String)
    /// The sound of the movie played as a camera (`--device file:PATH`).
    case movie
    /// The movie's sound and `microphone` mixed (`camrec react`), each at its gain (linear).
    indirect case mix(microphone: AudioRequest, movieGain: Double, microphoneGain: Double)

    /// Reads `--audio`'s value: `none`, `default`, `camera`, `test`, an ALSA device name
    /// (`hw:`, `plughw:`, `sysdefault:`, `dsnoop:`, `front:`, …: anything with a colon but
    /// no dot before it), or else a sound-server source name. Nil for an empty value.
    public init?(parsing text: String) {
        switch text {
        case "": return nil
        case "none", "off": self = .none
        case "default", "auto": self = .systemDefault
        case "camera": self = .camera
        case "test": self = .test
        case "file": self = .movie
        default:
            if let colon = text.firstIndex(of: ":"), !text[..<colon].contains("."), text[..<colon].allSatisfy(\.isLetter) {
                self = .alsa(text)
            } else {
                self = .server(text)
            }
        }
    }

    /// Whether sound is recorded at all.
    public var isWanted: Bool { self != .none }

    /// Whether the source is known only once the cameras are (a camera's microphone, a movie's sound).
    public var waitsForCameras: Bool {
        switch self {
        case .camera, .movie, .mix: true
        default: false
        }
    }
}

extension AudioRequest {
    /// `--audio` and `--audio-bitrate` as given (nil: not given): the source (none unless
    /// given) and the bitrate in kbit/s, which needs a source. Every refusal is a usage error.
    public static func parse(source: String?, bitrate: String?) throws(CamrecError) -> (source: AudioRequest, bitrate: Int?) {
        let request = try OptionValue.parse("--audio", source) { (text: String) throws(ValueError) -> AudioRequest in
            guard let request = AudioRequest(parsing: text) else {
                throw ValueError("give a sound source: default, camera, test, file (a --device file: movie's), a source name, an ALSA device such as hw:1,0, or none")
            }
            return request
        } ?? .none
        let kilobits = try OptionValue.parse("--audio-bitrate", bitrate, BitRate.parseSoundKilobits)
        if kilobits != nil, !request.isWanted {
            throw OptionValue.refusal("--audio-bitrate without --audio: give --audio SOURCE (e.g. --audio default) to record sound")
        }
        return (request, kilobits)
    }
}

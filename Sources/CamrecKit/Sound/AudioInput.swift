/// A sound source found on this machine, ready to record from: what `AudioRequest`
/// resolves to.
public struct AudioInput: Sendable, Equatable {
    /// Which element records it.
    public enum Element: Sendable, Equatable {
        /// `pulsesrc` (PulseAudio, or PipeWire's PulseAudio server); nil device: the server's default source.
        case pulse(device: String?)
        /// `alsasrc device=…`.
        case alsa(device: String)
        /// `audiotestsrc`: a tone.
        case test
        /// The sound of the movie at this path, played as a camera (an appsrc camrec fills).
        case movie(path: String)
        /// A movie's sound and a microphone mixed (`camrec react`), each at its gain (linear).
        indirect case mix(moviePath: String, microphone: Element, movieGain: Double, microphoneGain: Double)

        /// The movie whose sound the recording takes (alone or mixed), if any.
        public var moviePath: String? {
            switch self {
            case .movie(let path), .mix(let path, _, _, _): path
            default: nil
            }
        }
    }

    /// The element and device.
    public var element: Element
    /// The source's own channel count, when known (a mono microphone stays mono); nil lets
    /// the source and encoder agree (stereo where both can).
    public var channels: Int?
    /// The source's own sample rate, when known.
    public var rate: Int?
    /// For people: what was picked and why (e.g. "the sound server's default source
    /// (alsa_input.usb-…)", "the camera's microphone hw:2,0").
    public var reason: String
    /// The camera this microphone belongs to (its /dev/video path), when it is one.
    public var camera: String?

    public init(element: Element, channels: Int? = nil, rate: Int? = nil, reason: String, camera: String? = nil) {
        self.element = element
        self.channels = channels
        self.rate = rate
        self.reason = reason
        self.camera = camera
    }

    /// The device as the `started` line names it: the source name, ALSA device,
    /// "default" (the server's default source) or "test".
    public var deviceName: String {
        switch element {
        case .pulse(let device): device ?? "default"
        case .alsa(let device): device
        case .test: "test"
        case .movie(let path): MovieSource.prefix + path
        case .mix(let path, let microphone, _, _):
            MovieSource.prefix + path + "+" + AudioInput(element: microphone, reason: "").deviceName
        }
    }
}

/// One sound source of this machine, as `camrec devices` lists it and the resolver picks
/// from: a sound server's source, or an ALSA capture device used directly.
public struct SoundSource: Sendable, Equatable {
    /// Who offers it.
    public enum Origin: String, Sendable, Equatable {
        /// A PulseAudio or PipeWire(-pulse) server: recorded with `pulsesrc device=NAME`.
        case server
        /// An ALSA capture device: recorded with `alsasrc device=hw:C,D`, bypassing any server.
        case alsa
    }

    /// Who offers it.
    public var origin: Origin
    /// The name to record from: the server's source name ("alsa_input.usb-…", "vsink.monitor")
    /// or the ALSA device ("hw:1,0"). `--audio` takes it.
    public var name: String
    /// For people ("HD Pro Webcam C920 Analog Stereo", "Monitor of Null Output").
    public var description: String
    /// Channel count, when known (the server's sample spec, or the card's capture stream).
    public var channels: Int?
    /// Sample rate, when known.
    public var rate: Int?
    /// A monitor of an output (what is played, not a microphone).
    public var isMonitor: Bool
    /// The sound server's default source.
    public var isDefault: Bool
    /// The ALSA card underneath, when known.
    public var card: Int?
    /// The USB device it sits on in sysfs (see `SysfsTree`), when known.
    public var usbDevice: String?
    /// ALSA only: whether this user may open the node.
    public var permitted: Bool
    /// The camera (its /dev/video path) on the same USB device, when one is.
    public var camera: String?

    public init(origin: Origin, name: String, description: String, channels: Int? = nil, rate: Int? = nil,
                isMonitor: Bool = false, isDefault: Bool = false, card: Int? = nil, usbDevice: String? = nil,
                permitted: Bool = true, camera: String? = nil) {
        self.origin = origin
        self.name = name
        self.description = description
        self.channels = channels
        self.rate = rate
        self.isMonitor = isMonitor
        self.isDefault = isDefault
        self.card = card
        self.usbDevice = usbDevice
        self.permitted = permitted
        self.camera = camera
    }

    /// The element that records it.
    public var element: AudioInput.Element {
        switch origin {
        case .server: .pulse(device: name)
        case .alsa: .alsa(device: name)
        }
    }
}

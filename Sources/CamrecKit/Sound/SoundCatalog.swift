/// The sound sources of this machine: the sound server's sources (when a server answers)
/// and the ALSA capture devices, with the cards they sit on. A plain value: `scan()` reads
/// the machine, everything else is computed from what it read.
public struct SoundCatalog: Sendable, Equatable {
    /// The socket a PulseAudio or PipeWire-pulse server answered on; nil when none did.
    public var server: String?
    /// The server's sources (empty without a server).
    public var serverSources: [SoundSource]
    /// The ALSA sound cards.
    public var cards: [SoundCard]
    /// The ALSA capture devices, used directly (a running server may hold them).
    public var alsaSources: [SoundSource]

    public init(server: String?, serverSources: [SoundSource], cards: [SoundCard], alsaSources: [SoundSource]) {
        self.server = server
        self.serverSources = serverSources
        self.cards = cards
        self.alsaSources = alsaSources
    }

    /// Every source: the server's first, then ALSA's.
    public var sources: [SoundSource] { serverSources + alsaSources }

    /// The server's default source, when a server answers and says which it is.
    public var defaultSource: SoundSource? { serverSources.first(where: \.isDefault) }

    /// Reads this machine: finds a server's socket (`SoundServer`), asks the server for its
    /// sources through GStreamer's pulse device provider (and `pactl`, when installed, for their
    /// channels and rates), and reads the ALSA cards (/proc/asound, /sys) and capture nodes
    /// (/dev/snd).
    /// `environment` decides where the server is looked for (`PULSE_SERVER`, `XDG_RUNTIME_DIR`).
    public static func scan(environment: [String: String] = SoundServer.processEnvironment(), sysfs: SysfsTree = .system,
                            asound: String = "/proc/asound", snd: String = "/dev/snd") -> SoundCatalog {
        let server = SoundServer.find(environment: environment)
        var serverSources: [SoundSource] = []
        if let server {
            let pactl = Pactl.read(socket: server)
            serverSources = ServerSources.sources(SoundMachine.serverDevices(socket: server), formats: pactl.formats,
                                                  defaultName: pactl.defaultSource)
        }
        let cards = SoundMachine.cards(sysfs: sysfs, asound: asound)
        let nodes = AlsaCaptureNodes.list(folder: snd)
        return SoundCatalog(server: server, serverSources: serverSources, cards: cards, alsaSources: alsaSources(nodes, cards: cards))
    }

    /// The ALSA capture devices as sources, named after their cards; the card's capture
    /// format (USB audio) is given to its first device.
    public static func alsaSources(_ nodes: [AlsaCaptureNodes.Node], cards: [SoundCard]) -> [SoundSource] {
        nodes.map { node in
            let card = cards.first { $0.number == node.card }
            let first = nodes.first { $0.card == node.card }?.device == node.device
            let description = card.map { "\($0.name) (\($0.id)), device \(node.device)" } ?? "card \(node.card), device \(node.device)"
            return SoundSource(origin: .alsa, name: node.name, description: description,
                               channels: first ? card?.captureChannels : nil, rate: first ? card?.captureRate : nil,
                               card: node.card, usbDevice: card?.usbDevice, permitted: node.permitted)
        }
    }

    /// The sources with the cameras they belong to filled in.
    public func attaching(cameras: [CameraMicrophone.Camera]) -> SoundCatalog {
        var catalog = self
        catalog.serverSources = CameraMicrophone.attach(cameras: cameras, to: serverSources, cards: cards)
        catalog.alsaSources = CameraMicrophone.attach(cameras: cameras, to: alsaSources, cards: cards)
        return catalog
    }
}

import GStreamer

/// Turns what `--audio` asks for into the source to record, or a `CamrecError` a person can
/// act on, before any camera is opened for recording. Everything it knows of the machine
/// comes through its finders, so tests give it plain values; `live` reads this machine.
public struct AudioSourceResolver: Sendable {
    /// This machine's sound sources (called at most once per `resolve`, and not for
    /// `none` or `test`).
    public var catalog: @Sendable () -> SoundCatalog
    /// The camera at a path, as microphone matching needs it.
    public var camera: @Sendable (String) -> CameraMicrophone.Camera
    /// Whether an ALSA capture node can be opened now.
    public var alsaState: @Sendable (AlsaCaptureNodes.Node) -> AlsaCaptureNodes.State
    /// Whether a GStreamer element (pulsesrc, alsasrc) is installed.
    public var elementExists: @Sendable (String) -> Bool

    public init(catalog: @escaping @Sendable () -> SoundCatalog,
                camera: @escaping @Sendable (String) -> CameraMicrophone.Camera,
                alsaState: @escaping @Sendable (AlsaCaptureNodes.Node) -> AlsaCaptureNodes.State,
                elementExists: @escaping @Sendable (String) -> Bool) {
        self.catalog = catalog
        self.camera = camera
        self.alsaState = alsaState
        self.elementExists = elementExists
    }

    /// The resolver over this machine: `SoundCatalog.scan()`, the camera's sysfs entry and
    /// QUERYCAP bus info, /dev/snd, GStreamer's registry.
    public static let live = machine(environment: SoundServer.processEnvironment())

    /// The resolver over this machine, looking for the sound server where a client with
    /// `environment` would (`PULSE_SERVER`, `XDG_RUNTIME_DIR`).
    public static func machine(environment: [String: String]) -> AudioSourceResolver {
        AudioSourceResolver(
            catalog: { SoundCatalog.scan(environment: environment) },
            camera: { CameraMicrophone.camera(path: $0) },
            alsaState: { AlsaCaptureNodes.state(of: $0) },
            elementExists: { name in (try? ElementFactory.find(name)) != nil })
    }

    /// Where sound sources are listed, for the end of error messages.
    static let listHint = "camrec devices lists sound sources"

    /// The source for `request`; nil for `.none`. `camera` is the camera being recorded
    /// (its /dev path; nil for the test pattern), used by `.camera`.
    ///
    /// Errors: no sound server and no ALSA device, or a missing element → `.unavailable` (69);
    /// no such source, or a camera without a microphone → `.noCamera` (66); a busy ALSA
    /// device → `.cameraBusy` (75); a forbidden one → `.permissionDenied` (77); `camera`
    /// with the test pattern → `.usage` (64).
    public func resolve(_ request: AudioRequest, camera: String?) throws(CamrecError) -> AudioInput? {
        switch request {
        case .none: return nil
        case .test: return AudioInput(element: .test, reason: "a test tone (audiotestsrc)")
        case .movie, .mix:
            // Known once the movies are: see `AudioInput.movie(_:)`.
            throw CamrecError(.usage, "--audio file records the sound of a movie played as a camera: give --device file:PATH too")
        case .systemDefault: return try systemDefault(catalog())
        case .camera: return try cameraMicrophone(camera, catalog: catalog())
        case .server(let name): return try serverSource(name, catalog: catalog())
        case .alsa(let device): return try alsaDevice(device, catalog: catalog())
        }
    }

    // MARK: Each request

    func systemDefault(_ catalog: SoundCatalog) throws(CamrecError) -> AudioInput {
        if catalog.server != nil {
            try require("pulsesrc")
            guard let source = catalog.defaultSource else {
                return AudioInput(element: .pulse(device: nil), reason: "the sound server's default source")
            }
            return AudioInput(element: .pulse(device: nil), channels: source.channels, rate: source.rate,
                              reason: "the sound server's default source \(source.name) (\(source.description))")
        }
        guard !catalog.alsaSources.isEmpty else {
            throw CamrecError(.unavailable, "no sound server answers and no ALSA capture device exists: start PulseAudio or PipeWire, or plug in a microphone; \(Self.listHint)")
        }
        try require("alsasrc")
        guard catalog.alsaSources.contains(where: \.permitted) else { throw Self.forbidden(catalog.alsaSources.map(\.name)) }
        return AudioInput(element: .alsa(device: "default"),
                          reason: "ALSA's default capture device (no sound server answers; capture devices: \(Self.names(catalog.alsaSources)))")
    }

    func cameraMicrophone(_ path: String?, catalog: SoundCatalog) throws(CamrecError) -> AudioInput {
        guard let path else {
            throw CamrecError(.usage, "--audio camera needs a camera, and the test pattern has no microphone: use --audio test or --audio default")
        }
        let noMicrophone = CamrecError(.noCamera, "the camera \(path) has no microphone (no sound device on its USB device); \(Self.listHint)")
        guard let card = CameraMicrophone.card(of: camera(path), among: catalog.cards),
              let source = CameraMicrophone.source(on: card, serverSources: catalog.serverSources, alsaSources: catalog.alsaSources)
        else { throw noMicrophone }
        switch source.origin {
        case .server:
            try require("pulsesrc")
            return AudioInput(element: .pulse(device: source.name), channels: source.channels, rate: source.rate,
                              reason: "the camera's microphone: sound-server source \(source.name) (\(source.description), card \(card.number) \(card.id) on the camera's USB device)",
                              camera: path)
        case .alsa:
            try require("alsasrc")
            try check(AlsaCaptureNodes.Node(card: source.card ?? card.number, device: Self.deviceNumber(source.name)), name: source.name)
            let why = catalog.server == nil ? "no sound server answers" : "the sound server offers no source for it"
            return AudioInput(element: .alsa(device: source.name), channels: source.channels, rate: source.rate,
                              reason: "the camera's microphone \(source.name) (\(card.name), on the camera's USB device; \(why))",
                              camera: path)
        }
    }

    func serverSource(_ name: String, catalog: SoundCatalog) throws(CamrecError) -> AudioInput {
        guard catalog.server != nil else {
            throw CamrecError(.unavailable, "no sound server answers, so there is no source \(name): start PulseAudio or PipeWire; \(Self.listHint)")
        }
        guard let source = catalog.serverSources.first(where: { $0.name == name }) else {
            let there = catalog.serverSources.isEmpty ? "it has none" : "its sources are " + Self.names(catalog.serverSources)
            throw CamrecError(.noCamera, "the sound server has no source \(name): \(there)")
        }
        try require("pulsesrc")
        return AudioInput(element: .pulse(device: name), channels: source.channels, rate: source.rate,
                          reason: "sound-server source \(name) (\(source.description))")
    }

    func alsaDevice(_ device: String, catalog: SoundCatalog) throws(CamrecError) -> AudioInput {
        try require("alsasrc")
        guard let parsed = AlsaDeviceName(device) else {
            return AudioInput(element: .alsa(device: device), reason: "ALSA device \(device) (not checked: camrec cannot tell which card it opens)")
        }
        let nodes = catalog.alsaSources.compactMap { source in
            source.card.map { AlsaCaptureNodes.Node(card: $0, device: Self.deviceNumber(source.name), permitted: source.permitted) }
        }
        let there = catalog.alsaSources.isEmpty ? "there is no ALSA capture device" : "ALSA capture devices: " + Self.names(catalog.alsaSources)
        guard let number = parsed.cardNumber(among: catalog.cards, nodes: nodes) else {
            throw CamrecError(.noCamera, "no ALSA sound card \(parsed.card) for \(device): \(there)")
        }
        let onCard = nodes.filter { $0.card == number }
        guard let node = parsed.opensHardware ? onCard.first(where: { $0.device == parsed.device }) : onCard.first else {
            throw CamrecError(.noCamera, "no ALSA capture device \(device) (card \(number) has no capture device \(parsed.device)): \(there)")
        }
        if parsed.opensHardware {
            try check(node, name: device)
        } else if !node.permitted {
            throw Self.forbidden([device])
        }
        let source = catalog.alsaSources.first { $0.name == node.name }
        let card = catalog.cards.first { $0.number == number }
        return AudioInput(element: .alsa(device: device), channels: source?.channels, rate: source?.rate,
                          reason: "ALSA device \(device)" + (card.map { " (\($0.name))" } ?? ""))
    }

    // MARK: Helpers

    /// Throws `.unavailable` naming the package when `element` is not installed.
    func require(_ element: String) throws(CamrecError) {
        guard !elementExists(element) else { return }
        let package = element == "alsasrc" ? "gstreamer1.0-alsa" : "gstreamer1.0-plugins-good"
        throw CamrecError(.unavailable, "\(element) is not installed: sudo apt-get install \(package)")
    }

    /// Throws unless the ALSA node `name` opens can be opened now.
    func check(_ node: AlsaCaptureNodes.Node, name: String) throws(CamrecError) {
        switch alsaState(node) {
        case .free: return
        case .missing: throw CamrecError(.noCamera, "no ALSA capture device \(name) (\(node.nodeName) is gone); \(Self.listHint)")
        case .busy:
            throw CamrecError(.cameraBusy, "the ALSA device \(name) is busy (used by another program, perhaps the sound server: record from its source instead; \(Self.listHint))")
        case .forbidden: throw Self.forbidden([name])
        case .failed(let reason): throw CamrecError(.failure, "the ALSA device \(name) cannot be opened: \(reason)")
        }
    }

    static func forbidden(_ names: [String]) -> CamrecError {
        CamrecError(.permissionDenied, "permission denied opening the ALSA capture device \(names.joined(separator: ", ")): add yourself to the audio group (sudo usermod -aG audio $USER) and log in again")
    }

    /// "a (A), b (B)": names with descriptions, for one-line messages.
    static func names(_ sources: [SoundSource]) -> String {
        sources.map { "\($0.name) (\($0.description))" }.joined(separator: ", ")
    }

    /// D in "hw:C,D" (0 when it cannot be read).
    static func deviceNumber(_ name: String) -> Int {
        AlsaDeviceName(name)?.device ?? 0
    }
}

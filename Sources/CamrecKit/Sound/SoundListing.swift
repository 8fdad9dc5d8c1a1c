/// The sound part of `camrec devices`: JSON entries (`"kind":"audio"`) and text for people.
public enum SoundListing {
    /// One sound source in `camrec devices --json` (`sound_sources`). Every key is always
    /// present; unknown values are null.
    public struct Entry: Codable, Sendable, Equatable {
        /// Always "audio" (cameras are "video").
        public var kind: String = "audio"
        /// What `--audio` takes: the server's source name, or the ALSA device (hw:C,D).
        public var name: String
        /// For people.
        public var description: String
        /// "server" (PulseAudio or PipeWire, recorded with pulsesrc) or "alsa" (alsasrc, direct).
        public var origin: String
        /// The element that records it: "pulsesrc" or "alsasrc".
        public var element: String
        /// Channel count; null when unknown.
        public var channels: Int?
        /// Sample rate in Hz; null when unknown.
        public var rate: Int?
        /// A monitor of an output (records what is played), not a microphone.
        public var monitor: Bool
        /// The sound server's default source (what `--audio default` records).
        public var `default`: Bool
        /// The ALSA card underneath; null when unknown.
        public var card: Int?
        /// The camera (device path) whose microphone it is; null when none.
        public var camera: String?
        /// Whether this user may open it (ALSA devices; always true for the server's).
        public var permitted: Bool

        enum CodingKeys: String, CodingKey {
            case kind, name, description, origin, element, channels, rate, monitor, `default`, card, camera, permitted
        }

        /// Encodes every key, unknown values as null.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(kind, forKey: .kind)
            try container.encode(name, forKey: .name)
            try container.encode(description, forKey: .description)
            try container.encode(origin, forKey: .origin)
            try container.encode(element, forKey: .element)
            try container.encode(channels, forKey: .channels)
            try container.encode(rate, forKey: .rate)
            try container.encode(monitor, forKey: .monitor)
            try container.encode(self.default, forKey: .default)
            try container.encode(card, forKey: .card)
            try container.encode(camera, forKey: .camera)
            try container.encode(permitted, forKey: .permitted)
        }
    }

    /// The entries of `catalog`: the server's sources, then the ALSA devices.
    public static func entries(_ catalog: SoundCatalog) -> [Entry] {
        catalog.sources.map { source in
            Entry(name: source.name, description: source.description, origin: source.origin.rawValue,
                  element: source.origin == .server ? "pulsesrc" : "alsasrc", channels: source.channels, rate: source.rate,
                  monitor: source.isMonitor, default: source.isDefault, card: source.card, camera: source.camera,
                  permitted: source.permitted)
        }
    }

    /// Text for a terminal, every line ending with a newline:
    ///
    ///     Sound sources (sound server at /run/user/1000/pulse/native):
    ///        vsink.monitor  Monitor of Null Output
    ///           server, 2 channels, 48000 Hz, monitor of an output, default
    ///        hw:1,0  HD Pro Webcam C920 (C920), device 0
    ///           ALSA (used directly), 1 channel, 32000 Hz, microphone of /dev/video0
    public static func humanText(_ catalog: SoundCatalog) -> String {
        var lines: [String] = []
        if let server = catalog.server {
            lines.append("Sound sources (sound server at \(server)):")
            if catalog.serverSources.isEmpty { lines.append("   the sound server has no sources") }
        } else {
            lines.append(catalog.alsaSources.isEmpty ? "Sound sources (no sound server answers):"
                         : "Sound sources (no sound server answers; --audio default uses ALSA's default device):")
        }
        for source in catalog.sources {
            lines.append("   \(source.name)  \(source.description)")
            var notes = [source.origin == .server ? "server" : "ALSA (used directly)"]
            if let channels = source.channels { notes.append(channels == 1 ? "1 channel" : "\(channels) channels") }
            if let rate = source.rate { notes.append("\(rate) Hz") }
            if source.isMonitor { notes.append("monitor of an output") }
            if source.isDefault { notes.append("default") }
            if let camera = source.camera { notes.append("microphone of \(camera)") }
            if !source.permitted { notes.append("not permitted (join the audio group)") }
            lines.append("      " + notes.joined(separator: ", "))
        }
        if catalog.server == nil, catalog.alsaSources.isEmpty {
            lines.append("   none: start PulseAudio or PipeWire, or plug in a microphone")
        }
        return lines.map { $0 + "\n" }.joined()
    }
}

/// Turning what GStreamer's pulse device provider and `pactl` report into `SoundSource`s
/// (pure; the machine access is in `SoundCatalog`).
public enum ServerSources {
    /// One `Audio/Source` device of the pulse device provider, as plain values.
    public struct Found: Sendable, Equatable {
        /// Its `internal-name`: the source name pulsesrc's `device` takes.
        public var name: String
        /// Its display name.
        public var displayName: String
        /// Its properties (the server's property list, plus "is-default").
        public var properties: [String: String]

        public init(name: String, displayName: String, properties: [String: String]) {
            self.name = name
            self.displayName = displayName
            self.properties = properties
        }
    }

    /// A source's sample spec.
    public struct Format: Sendable, Equatable {
        public var channels: Int
        public var rate: Int

        public init(channels: Int, rate: Int) {
            self.channels = channels
            self.rate = rate
        }
    }

    /// The sources, in the provider's order, with the formats from `pactl` where known.
    /// `defaultName` (from `pactl get-default-source`) marks the default when the provider's
    /// "is-default" says nothing.
    public static func sources(_ found: [Found], formats: [String: Format] = [:], defaultName: String? = nil) -> [SoundSource] {
        let anyDefault = found.contains { $0.properties["is-default"] == "true" }
        return found.map { device in
            let properties = device.properties
            let card = (properties["alsa.card"] ?? properties["api.alsa.card"]).flatMap { Int($0) }
            let sysfs = properties["sysfs.path"]
            let format = formats[device.name]
            let isDefault = anyDefault ? properties["is-default"] == "true" : device.name == defaultName
            let description = properties["device.description"] ?? device.displayName
            return SoundSource(origin: .server, name: device.name, description: description.isEmpty ? device.name : description,
                               channels: format?.channels, rate: format?.rate,
                               isMonitor: properties["device.class"] == "monitor" || device.name.hasSuffix(".monitor"),
                               isDefault: isDefault, card: card, usbDevice: sysfs.flatMap(SysfsTree.usbDevice(inPath:)))
        }
    }

    /// The formats in `pactl list short sources`:
    /// `0<TAB>vsink.monitor<TAB>module-null-sink.c<TAB>s16le 2ch 48000Hz<TAB>IDLE`.
    public static func formats(pactlShortSources text: String) -> [String: Format] {
        var formats: [String: Format] = [:]
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count >= 4 else { continue }
            var channels: Int?
            var rate: Int?
            for word in fields[3].split(separator: " ") {
                if word.hasSuffix("ch") { channels = Int(word.dropLast(2)) }
                if word.hasSuffix("Hz") { rate = Int(word.dropLast(2)) }
            }
            if let channels, let rate { formats[String(fields[1])] = Format(channels: channels, rate: rate) }
        }
        return formats
    }
}

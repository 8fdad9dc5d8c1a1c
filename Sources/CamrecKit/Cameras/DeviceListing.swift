import V4L2
import FoundationEssentials

/// The output of `camrec devices`: human text, and JSON whose shape scripts can rely on.
///
/// JSON keys are snake_case and always present (a value that cannot be read is `null`,
/// never a missing key); frame rates are numbers rounded to two decimals (29.97), sizes and
/// rates fastest/driver order as the camera reports them.
public enum DeviceListing {
    /// The whole `--json` document:
    /// `{"devices":[…],"problems":[…],"sound_server":…,"sound_sources":[…]}`.
    public struct Document: Codable, Sendable, Equatable {
        /// The cameras (`"kind":"video"`).
        public let devices: [Device]
        /// Nodes that exist but could not be probed, with a message for each.
        public let problems: [Problem]
        /// The socket a sound server (PulseAudio, PipeWire) answered on; null when none did.
        public var soundServer: String? = nil
        /// The sound sources (`"kind":"audio"`): the server's, then ALSA capture devices.
        public var soundSources: [SoundListing.Entry] = []

        enum CodingKeys: String, CodingKey {
            case devices, problems
            case soundServer = "sound_server"
            case soundSources = "sound_sources"
        }

        /// Encodes every key, `sound_server` as null when none answered.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(devices, forKey: .devices)
            try container.encode(problems, forKey: .problems)
            try container.encode(soundServer, forKey: .soundServer)
            try container.encode(soundSources, forKey: .soundSources)
        }
    }

    /// One camera.
    public struct Device: Codable, Sendable, Equatable {
        /// Always "video" (sound sources are "audio").
        public var kind: String = "video"
        /// Position in the list (what `--device N` selects).
        public let index: Int
        /// Device node.
        public let path: String
        /// Card name.
        public let card: String
        /// Kernel driver.
        public let driver: String
        /// bus_info.
        public let bus: String
        /// Capability names.
        public let capabilities: [String]
        /// Pixel formats.
        public let formats: [Format]
        /// Controls.
        public let controls: [ControlEntry]
        /// The name that stays when the camera is plugged in again (its `/dev/v4l/by-id`
        /// link, else its `/dev/v4l/by-path` link); null when udev made none. `--device`
        /// takes it.
        public let stableName: String?

        enum CodingKeys: String, CodingKey {
            case kind, index, path, card, driver, bus, capabilities, formats, controls
            case stableName = "stable_name"
        }

        /// Encodes every key, `stable_name` as null when there is none.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(kind, forKey: .kind)
            try container.encode(index, forKey: .index)
            try container.encode(path, forKey: .path)
            try container.encode(card, forKey: .card)
            try container.encode(driver, forKey: .driver)
            try container.encode(bus, forKey: .bus)
            try container.encode(capabilities, forKey: .capabilities)
            try container.encode(formats, forKey: .formats)
            try container.encode(controls, forKey: .controls)
            try container.encode(stableName, forKey: .stableName)
        }
    }

    /// One pixel format.
    public struct Format: Codable, Sendable, Equatable {
        /// "YUYV", "MJPG", "H264".
        public let fourcc: String
        /// Driver's description.
        public let description: String
        /// Compressed flag.
        public let compressed: Bool
        /// Sizes with their rates.
        public let sizes: [Size]
    }

    /// One size and its rates.
    public struct Size: Codable, Sendable, Equatable {
        /// Width in pixels.
        public let width: Int
        /// Height in pixels.
        public let height: Int
        /// Frames per second, fastest first, rounded to two decimals.
        public let fps: [Double]
    }

    /// One control.
    public struct ControlEntry: Codable, Sendable, Equatable {
        /// V4L2 control id.
        public let id: UInt32
        /// Driver's name.
        public let name: String
        /// Command-line name ("white_balance_temperature_auto").
        public let key: String
        /// "integer", "boolean", "menu", …
        public let type: String
        /// Minimum.
        public let min: Int64
        /// Maximum.
        public let max: Int64
        /// Step.
        public let step: Int64
        /// Default value.
        public let `default`: Int64
        /// Current value; null when unreadable.
        public let value: Int64?
        /// Flag names ("inactive", "read_only", …).
        public let flags: [String]
        /// Menu items (empty unless a menu).
        public let menu: [MenuEntry]
        /// The name `--set` knows it by (`exposure`, `white-balance`, `flash`…); null when
        /// it has none (its key works).
        public var friendly: String? = nil

        enum CodingKeys: String, CodingKey {
            case id, name, key, type, min, max, step, `default`, value, flags, menu, friendly
        }

        /// Encodes every key, `value` as null when unknown.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(name, forKey: .name)
            try container.encode(key, forKey: .key)
            try container.encode(type, forKey: .type)
            try container.encode(min, forKey: .min)
            try container.encode(max, forKey: .max)
            try container.encode(step, forKey: .step)
            try container.encode(self.default, forKey: .default)
            try container.encode(value, forKey: .value)
            try container.encode(flags, forKey: .flags)
            try container.encode(menu, forKey: .menu)
            try container.encode(friendly, forKey: .friendly)
        }
    }

    /// One menu item.
    public struct MenuEntry: Codable, Sendable, Equatable {
        /// Value to write.
        public let index: Int64
        /// Item name.
        public let name: String
    }

    /// A device node that could not be probed.
    public struct Problem: Codable, Sendable, Equatable {
        /// Device node.
        public let path: String
        /// One line a person can act on.
        public let message: String
    }

    /// The JSON document for `devices`, scan `failures` and the `sound` sources (none
    /// listed when nil).
    public static func document(_ devices: [CaptureDevice], failures: [DeviceError] = [], sound: SoundCatalog? = nil) -> Document {
        Document(devices: devices.map(entry), problems: failures.map { Problem(path: $0.path, message: $0.message) },
                 soundServer: sound?.server, soundSources: sound.map(SoundListing.entries) ?? [])
    }

    /// The JSON text: one line by default (scripts read JSON lines), indented when `pretty`.
    /// Keys are sorted, so the text is stable.
    public static func jsonText(_ devices: [CaptureDevice], failures: [DeviceError] = [], sound: SoundCatalog? = nil,
                                pretty: Bool = false) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
            : [.sortedKeys, .withoutEscapingSlashes]
        // Encoding plain strings and numbers cannot fail; an empty document is a safe fallback.
        guard let data = try? encoder.encode(document(devices, failures: failures, sound: sound)) else {
            return #"{"devices":[],"problems":[],"sound_server":null,"sound_sources":[]}"#
        }
        return String(decoding: data, as: UTF8.self)
    }

    static func entry(_ device: CaptureDevice) -> Device {
        Device(
            index: device.index, path: device.path, card: device.card, driver: device.driver, bus: device.bus,
            capabilities: device.capabilities,
            formats: device.formats.map { format in
                Format(fourcc: format.fourcc, description: format.description, compressed: format.compressed,
                       sizes: format.sizes.map { Size(width: $0.width, height: $0.height, fps: $0.rates.map(\.roundedValue)) })
            },
            controls: device.controls.map { control in
                ControlEntry(id: control.id, name: control.name, key: control.key, type: control.type.rawValue,
                             min: control.minimum, max: control.maximum, step: control.step,
                             default: control.defaultValue, value: control.value, flags: control.flags.names,
                             menu: control.menu.map { MenuEntry(index: $0.index, name: $0.name) },
                             friendly: FriendlyControl.name(for: control, among: device.controls))
            },
            stableName: device.stableName)
    }

    // MARK: Human text

    /// Text for a terminal: each camera with its formats (sizes sharing the same rates on one
    /// line) and, when `showControls`, its controls; every line ends with a newline, and no
    /// cameras give no text. Why a camera is missing is an error or a warning for stderr
    /// (`SelectionError.noCameras`, `DeviceError.message`), not part of the listing.
    public static func humanText(_ devices: [CaptureDevice], showControls: Bool = true) -> String {
        var lines: [String] = []
        for device in devices {
            if !lines.isEmpty { lines.append("") }
            lines.append("\(device.index): \(device.path)  \(device.card)")
            lines.append("   driver \(device.driver), bus \(device.bus)\(device.multiplanar ? ", multi-planar" : "")")
            if let stable = device.stableName { lines.append("   stable name \(stable)") }
            if device.formats.isEmpty { lines.append("   no formats reported") }
            for format in device.formats {
                var notes: [String] = []
                if format.compressed { notes.append("compressed") }
                if format.family == .unsupported { notes.append("not recordable by camrec") }
                let noteText = notes.isEmpty ? "" : " (" + notes.joined(separator: ", ") + ")"
                lines.append("   \(format.displayFourcc)  \(format.description)\(noteText)")
                if let range = format.sizeRange {
                    lines.append("         any size \(range.minimum)…\(range.maximum) in steps of \(range.step), e.g.:")
                }
                for group in sizeGroups(format.sizes) {
                    lines.append("         \(group)")
                }
            }
            if showControls, !device.controls.isEmpty {
                lines.append("   controls:")
                // The friendly name beside the driver's key, when they differ ("auto_exposure (exposure)").
                let names = device.controls.map { control in
                    guard let friendly = FriendlyControl.name(for: control, among: device.controls),
                          friendly != control.key else { return control.key }
                    return "\(control.key) (\(friendly))"
                }
                let width = min(names.map(\.count).max() ?? 0, 48)
                for (control, name) in zip(device.controls, names) {
                    lines.append("     " + pad(name, to: width) + "  " + controlSummary(control))
                }
            }
        }
        return lines.map { $0 + "\n" }.joined()
    }

    /// "640x480, 320x240 @ 30, 15 fps": sizes with identical rates grouped, in driver order.
    static func sizeGroups(_ sizes: [FrameSizeOption]) -> [String] {
        var groups: [(rates: [FrameRateValue], sizes: [String])] = []
        for option in sizes {
            if let at = groups.firstIndex(where: { $0.rates == option.rates }) {
                groups[at].sizes.append(option.size.description)
            } else {
                groups.append((option.rates, [option.size.description]))
            }
        }
        return groups.map { group in
            let rates = group.rates.isEmpty ? "rates not reported" : group.rates.map(\.roundedDescription).joined(separator: ", ") + " fps"
            return group.sizes.joined(separator: ", ") + " @ " + rates
        }
    }

    /// "integer 0…255 step 1, default 128, now 128 (inactive)".
    static func controlSummary(_ control: Control) -> String {
        var parts: [String] = []
        switch control.type {
        case .boolean:
            parts.append("boolean, default \(onOff(control.defaultValue))")
            if let value = control.value { parts.append("now \(onOff(value))") }
        case .menu, .integerMenu:
            let items = control.menu.map(\.label).joined(separator: ", ")
            parts.append("menu (\(items)), default \(control.defaultValue)")
            if let value = control.value { parts.append("now \(value)") }
        case .button:
            parts.append("button")
        default:
            let step = control.step > 1 ? " step \(control.step)" : ""
            parts.append("\(control.type.rawValue) \(control.minimum)…\(control.maximum)\(step), default \(control.defaultValue)")
            if let value = control.value { parts.append("now \(value)") }
        }
        let flags = control.flags.intersection([.inactive, .readOnly, .grabbed]).names
        return parts.joined(separator: ", ") + (flags.isEmpty ? "" : " (" + flags.joined(separator: ", ") + ")")
    }

    private static func onOff(_ value: Int64) -> String { value == 0 ? "off" : "on" }

    private static func pad(_ text: String, to width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }
}

/// An ALSA sound card as /proc/asound and /sys describe it.
public struct SoundCard: Sendable, Equatable {
    /// Card number (C in hw:C,D).
    public var number: Int
    /// Short id, e.g. "C920" (what `hw:CARD=C920` names).
    public var id: String
    /// Name for people, e.g. "HD Pro Webcam C920".
    public var name: String
    /// The USB bus info in its long name ("… at usb-0000:00:14.0-1, high speed"): the same
    /// text a USB camera's V4L2 driver reports. Nil for a card not on USB.
    public var busInfo: String?
    /// Its USB device in sysfs (see `SysfsTree`), nil when not on USB or unknown.
    public var usbDevice: String?
    /// Channels and rate its first capture stream offers (USB audio's `stream0`), when known.
    public var captureChannels: Int?
    /// The capture rate to record at: 48 kHz when offered, else the highest.
    public var captureRate: Int?

    public init(number: Int, id: String, name: String, busInfo: String? = nil, usbDevice: String? = nil,
                captureChannels: Int? = nil, captureRate: Int? = nil) {
        self.number = number
        self.id = id
        self.name = name
        self.busInfo = busInfo
        self.usbDevice = usbDevice
        self.captureChannels = captureChannels
        self.captureRate = captureRate
    }
}

/// Parsing of /proc/asound's text files (pure; the reads are in `SoundCatalog`).
public enum AsoundText {
    /// The cards in /proc/asound/cards:
    ///
    ///      1 [C920           ]: USB-Audio - HD Pro Webcam C920
    ///                           HD Pro Webcam C920 at usb-0000:00:14.0-1, high speed
    public static func cards(_ text: String) -> [SoundCard] {
        var cards: [SoundCard] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            let trimmed = line.trimmingWhitespace
            if let open = trimmed.firstIndex(of: "["), let number = Int(trimmed[..<open].trimmingWhitespace),
               let close = trimmed.firstIndex(of: "]"), open < close {
                let id = trimmed[trimmed.index(after: open)..<close].trimmingWhitespace
                var name = String(trimmed[trimmed.index(after: close)...])
                if name.hasPrefix(":") { name.removeFirst() }
                // "USB-Audio - HD Pro Webcam C920": the driver, then the card's name.
                if let dash = name.firstRange(of: " - ") { name = String(name[dash.upperBound...]) }
                cards.append(SoundCard(number: number, id: id, name: name.trimmingWhitespace))
            } else if !cards.isEmpty, cards[cards.count - 1].busInfo == nil {
                cards[cards.count - 1].busInfo = busInfo(longName: trimmed)
            }
        }
        return cards
    }

    /// "usb-0000:00:14.0-1" from "HD Pro Webcam C920 at usb-0000:00:14.0-1, high speed".
    public static func busInfo(longName: String) -> String? {
        guard let at = longName.firstRange(of: " at usb-") else { return nil }
        let rest = longName[longName.index(at.lowerBound, offsetBy: 4)...]
        let value = rest.prefix { $0 != "," && $0 != " " }
        return value.isEmpty ? nil : String(value)
    }

    /// Channels and rate of the first format in the "Capture:" part of a USB audio card's
    /// /proc/asound/cardN/stream0; nil values when it has none.
    ///
    ///     Capture:
    ///       Status: Stop
    ///       Interface 3
    ///         Altset 1
    ///         Format: S16_LE
    ///         Channels: 1
    ///         Rates: 16000, 32000, 48000      (or "8000 - 48000 (continuous)")
    public static func captureFormat(stream text: String) -> (channels: Int?, rate: Int?) {
        var inCapture = false
        var channels: Int?
        var rate: Int?
        for line in text.split(separator: "\n") {
            let trimmed = line.trimmingWhitespace
            if !line.hasPrefix(" ") && !line.hasPrefix("\t") {
                inCapture = trimmed.hasPrefix("Capture:")
                continue
            }
            guard inCapture else { continue }
            if channels == nil, trimmed.hasPrefix("Channels:") {
                channels = Int(trimmed.dropFirst("Channels:".count).trimmingWhitespace)
            } else if rate == nil, trimmed.hasPrefix("Rates:") {
                rate = pickRate(String(trimmed.dropFirst("Rates:".count)))
            }
        }
        return (channels, rate)
    }

    /// 48000 when offered (listed, or inside a continuous range), else the highest rate.
    static func pickRate(_ text: String) -> Int? {
        let numbers = text.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        guard let highest = numbers.max() else { return nil }
        if text.contains("continuous"), numbers.count >= 2, numbers[0] <= 48000, 48000 <= numbers[1] { return 48000 }
        return numbers.contains(48000) ? 48000 : highest
    }
}

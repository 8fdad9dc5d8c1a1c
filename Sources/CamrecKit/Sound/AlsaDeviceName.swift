/// What an ALSA device name says about the card and device it opens, for checking it
/// before recording: `hw:1,0`, `hw:1`, `plughw:CARD=C920,DEV=0`, `sysdefault:CARD=C920`,
/// `dsnoop:1`. Names of other shapes are passed to alsasrc unchecked.
public struct AlsaDeviceName: Sendable, Equatable {
    /// The plugin before the colon: "hw", "plughw", "sysdefault", "dsnoop", "front", …
    public var plugin: String
    /// The card: a number or an id ("C920").
    public var card: String
    /// The device number (0 when not given).
    public var device: Int

    public init(plugin: String, card: String, device: Int = 0) {
        self.plugin = plugin
        self.card = card
        self.device = device
    }

    /// Parses "plugin:args"; nil when no card can be read from it.
    public init?(_ text: String) {
        guard let colon = text.firstIndex(of: ":") else { return nil }
        plugin = String(text[..<colon])
        var card: String?
        var device: Int?
        var positional = 0
        for argument in text[text.index(after: colon)...].split(separator: ",") {
            if let equals = argument.firstIndex(of: "=") {
                let key = argument[..<equals].uppercased()
                let value = String(argument[argument.index(after: equals)...])
                if key == "CARD" { card = value } else if key == "DEV" { device = Int(value) }
            } else {
                if positional == 0 { card = String(argument) } else if positional == 1 { device = Int(argument) }
                positional += 1
            }
        }
        guard let card, !card.isEmpty else { return nil }
        self.card = card
        self.device = device ?? 0
    }

    /// Whether it opens the hardware device itself (hw, plughw), so that a busy or forbidden
    /// node means the name cannot be recorded from.
    public var opensHardware: Bool { plugin == "hw" || plugin == "plughw" }

    /// The card's number among `cards` (by number or id); nil when no such card exists.
    public func cardNumber(among cards: [SoundCard], nodes: [AlsaCaptureNodes.Node]) -> Int? {
        if let number = Int(card) {
            return cards.contains { $0.number == number } || nodes.contains { $0.card == number } ? number : nil
        }
        return cards.first { $0.id == card }?.number
    }
}

/// A camera control (brightness, exposure, …) as VIDIOC_QUERYCTRL/QUERYMENU/G_CTRL report it.
public struct Control: Sendable, Codable, Hashable {
    /// The V4L2 control id (V4L2_CID_*).
    public let id: UInt32
    /// The driver's name, e.g. "White Balance Temperature, Auto".
    public let name: String
    /// The kind of value the control takes.
    public let type: ControlType
    /// Smallest accepted value.
    public let minimum: Int64
    /// Largest accepted value.
    public let maximum: Int64
    /// Values must be `minimum + k * step` (for menus: the index step, usually 1).
    public let step: Int64
    /// The driver's default value.
    public let defaultValue: Int64
    /// The current value, or nil when it cannot be read (buttons, write-only controls).
    public let value: Int64?
    /// Items of a menu or integer-menu control (indexes the driver skips are absent).
    public let menu: [MenuItem]
    /// Inactive, read-only, and other flags.
    public let flags: ControlFlags

    /// A control with the given properties.
    public init(id: UInt32, name: String, type: ControlType, minimum: Int64, maximum: Int64, step: Int64,
                defaultValue: Int64, value: Int64?, menu: [MenuItem] = [], flags: ControlFlags = []) {
        self.id = id
        self.name = name
        self.type = type
        self.minimum = minimum
        self.maximum = maximum
        self.step = step
        self.defaultValue = defaultValue
        self.value = value
        self.menu = menu
        self.flags = flags
    }

    /// The name as `v4l2-ctl` writes it, usable on a command line:
    /// "White Balance Temperature, Auto" → "white_balance_temperature_auto".
    public var key: String { Control.key(for: name) }

    /// Lowercase ASCII letters and digits, every other run of characters replaced by one "_".
    public static func key(for name: String) -> String {
        var result = ""
        var pendingSeparator = false
        for scalar in name.unicodeScalars {
            if scalar.isASCII, scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
                if pendingSeparator, !result.isEmpty { result.append("_") }
                pendingSeparator = false
                result.unicodeScalars.append(contentsOf: String(scalar).lowercased().unicodeScalars)
            } else {
                pendingSeparator = true
            }
        }
        return result
    }

    /// Whether `reference` names this control: its key, its name (case-insensitive), or its
    /// numeric id (decimal or 0x hex).
    public func matches(_ reference: String) -> Bool {
        let trimmed = reference.trimmingSpaces
        if let number = Control.parseID(trimmed) { return number == id }
        return trimmed.lowercased() == name.lowercased() || Control.key(for: trimmed) == key
    }

    static func parseID(_ text: String) -> UInt32? {
        if text.hasPrefix("0x") || text.hasPrefix("0X") { return UInt32(text.dropFirst(2), radix: 16) }
        return UInt32(text)
    }

    /// Checks that `newValue` may be written: not read-only, not a button/class/string, within
    /// `minimum...maximum`, on a step, and an existing menu item for menus.
    public func validate(_ newValue: Int64) throws(ControlError) {
        if flags.contains(.readOnly) || flags.contains(.disabled) { throw .readOnly(control: name) }
        switch type {
        case .button, .controlClass, .string, .compound:
            throw .notSettable(control: name, type: type)
        default:
            break
        }
        guard newValue >= minimum, newValue <= maximum else {
            throw .outOfRange(control: name, value: newValue, minimum: minimum, maximum: maximum, step: step)
        }
        if step > 1, type != .bitmask, (newValue - minimum) % step != 0 {
            throw .outOfRange(control: name, value: newValue, minimum: minimum, maximum: maximum, step: step)
        }
        if type == .menu || type == .integerMenu, !menu.isEmpty, !menu.contains(where: { $0.index == newValue }) {
            throw .notAMenuItem(control: name, value: String(newValue), items: menu.map(\.label))
        }
    }

    /// Turns text a person typed into a value for this control and validates it:
    /// numbers for integers; true/false/on/off/yes/no/1/0 for booleans; an item name or index for menus.
    public func parseValue(_ text: String) throws(ControlError) -> Int64 {
        let trimmed = text.trimmingSpaces
        let parsed: Int64?
        switch type {
        case .boolean:
            switch trimmed.lowercased() {
            case "1", "true", "on", "yes": parsed = 1
            case "0", "false", "off", "no": parsed = 0
            default: parsed = nil
            }
        case .menu, .integerMenu:
            if let item = menuItem(named: trimmed) {
                parsed = item.index
            } else if let number = Int64(trimmed) {
                // An integer menu is addressed by its value first (what people see), then by index.
                parsed = menu.first(where: { $0.value == number })?.index ?? number
            } else {
                throw .notAMenuItem(control: name, value: trimmed, items: menu.map(\.label))
            }
        default:
            parsed = Int64(trimmed)
        }
        guard let value = parsed else { throw .invalidValue(control: name, text: trimmed, type: type) }
        try validate(value)
        return value
    }
}

extension Control {
    /// The menu item `text` names: same letters and digits ("60hz" is "60 Hz"), else the only
    /// item whose name starts with those words ("manual" is "Manual Mode").
    func menuItem(named text: String) -> MenuItem? {
        let wanted = Control.key(for: text)
        guard !wanted.isEmpty else { return nil }
        let compact = wanted.filter { $0 != "_" }
        if let exact = menu.first(where: { Control.key(for: $0.name).filter { $0 != "_" } == compact }) {
            return exact
        }
        let prefixed = menu.filter { Control.key(for: $0.name).hasPrefix(wanted + "_") }
        return prefixed.count == 1 ? prefixed.first : nil
    }
}

/// The kind of value a control takes (V4L2_CTRL_TYPE_*).
public enum ControlType: String, Sendable, Codable, Hashable {
    /// A number in a range.
    case integer
    /// On or off.
    case boolean
    /// One of named items.
    case menu
    /// An action with no value (e.g. "Pan, Reset").
    case button
    /// A 64-bit number.
    case integer64
    /// A heading that groups the controls after it; never listed.
    case controlClass = "control_class"
    /// Text.
    case string
    /// Bits that may be set together.
    case bitmask
    /// One of listed numbers.
    case integerMenu = "integer_menu"
    /// Arrays and compound types (not handled).
    case compound

    init(v4l2 raw: UInt32) {
        switch raw {
        case 1: self = .integer
        case 2: self = .boolean
        case 3: self = .menu
        case 4: self = .button
        case 5: self = .integer64
        case 6: self = .controlClass
        case 7: self = .string
        case 8: self = .bitmask
        case 9: self = .integerMenu
        default: self = .compound
        }
    }
}

/// One item of a menu control.
public struct MenuItem: Sendable, Codable, Hashable {
    /// The value to write to select this item.
    public let index: Int64
    /// The item's name (for an integer menu, its number as text).
    public let name: String
    /// For integer menus: the number this item stands for.
    public let value: Int64?

    /// A menu item.
    public init(index: Int64, name: String, value: Int64? = nil) {
        self.index = index
        self.name = name
        self.value = value
    }

    /// "1: Manual Mode", for messages.
    public var label: String { "\(index): \(name)" }
}

/// Control flags that matter to a person (V4L2_CTRL_FLAG_*).
public struct ControlFlags: OptionSet, Sendable, Codable, Hashable {
    /// The V4L2 flag bits.
    public let rawValue: UInt32
    /// Flags from V4L2 bits.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// The control is permanently disabled and should be ignored.
    public static let disabled = ControlFlags(rawValue: 0x0001)
    /// The control is temporarily grabbed (e.g. while streaming).
    public static let grabbed = ControlFlags(rawValue: 0x0002)
    /// The control is read-only.
    public static let readOnly = ControlFlags(rawValue: 0x0004)
    /// Another control governs it (e.g. exposure while auto exposure is on); setting it has no effect yet.
    public static let inactive = ControlFlags(rawValue: 0x0010)
    /// Its value can only be written.
    public static let writeOnly = ControlFlags(rawValue: 0x0040)
    /// Its value changes by itself (e.g. a gain the camera adjusts).
    public static let volatile = ControlFlags(rawValue: 0x0080)

    /// Names of the set flags, for output: "inactive", "read_only", …
    public var names: [String] {
        let all: [(ControlFlags, String)] = [
            (.disabled, "disabled"), (.grabbed, "grabbed"), (.readOnly, "read_only"),
            (.inactive, "inactive"), (.writeOnly, "write_only"), (.volatile, "volatile"),
        ]
        return all.filter { contains($0.0) }.map(\.1)
    }
}

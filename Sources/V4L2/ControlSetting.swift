/// One `NAME=VALUE` of `--set` (or `camrec ctl SOCKET set`), as typed.
public struct ControlAssignment: Sendable, Equatable {
    /// The name: a friendly name or a driver control's key, name or id.
    public var name: String
    /// The value text.
    public var value: String

    /// An assignment of `value` to `name`.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }

    /// Parses `NAME=VALUE[,NAME=VALUE…]`.
    public static func parseList(_ text: String) throws(ControlError) -> [ControlAssignment] {
        var result: [ControlAssignment] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: true) {
            guard let equals = part.firstIndex(of: "=") else { throw .malformedAssignment(String(part)) }
            let name = String(part[..<equals]).trimmingSpaces
            let value = String(part[part.index(after: equals)...]).trimmingSpaces
            guard !name.isEmpty, !value.isEmpty else { throw .malformedAssignment(String(part)) }
            result.append(ControlAssignment(name: name, value: value))
        }
        guard !result.isEmpty else { throw .malformedAssignment(text) }
        return result
    }
}

/// A control value to write, and the value it had (to restore it).
public struct ControlWrite: Sendable, Equatable {
    /// The control, as read before the write.
    public var control: Control
    /// The value to write.
    public var value: Int64

    /// A write of `value` to `control`.
    public init(control: Control, value: Int64) {
        self.control = control
        self.value = value
    }

    /// The value before the write, when it could be read.
    public var previous: Int64? { control.value }
}

/// What one `NAME=VALUE` (or `--flash`) becomes on a given camera: the writes, in order
/// (an automatic mode is switched off before its manual value is written).
public struct ControlSetting: Sendable, Equatable {
    /// The name as camrec reports it: a friendly name, `flash`, or the driver control's key.
    public var name: String
    /// The value as typed.
    public var text: String
    /// The writes.
    public var writes: [ControlWrite]

    /// A setting.
    public init(name: String, text: String, writes: [ControlWrite]) {
        self.name = name
        self.text = text
        self.writes = writes
    }
}

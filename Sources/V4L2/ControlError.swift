/// Why a control could not be read, found or set.
public enum ControlError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No control matches the name or id; `available` lists the keys that exist.
    case unknownControl(String, available: [String])
    /// The control is read-only or disabled.
    case readOnly(control: String)
    /// The control has no value to set (a button, a class heading, a string or compound control).
    case notSettable(control: String, type: ControlType)
    /// The value is outside `minimum...maximum` or not on a step.
    case outOfRange(control: String, value: Int64, minimum: Int64, maximum: Int64, step: Int64)
    /// The value is not one of the menu's items.
    case notAMenuItem(control: String, value: String, items: [String])
    /// The text is not a value of the control's type.
    case invalidValue(control: String, text: String, type: ControlType)
    /// Opening the device or the ioctl failed.
    case device(DeviceError)
    /// A friendly name's value is not one it takes here; `allowed` says what is.
    case badValue(control: String, text: String, allowed: String)
    /// `--set` text that is not NAME=VALUE.
    case malformedAssignment(String)
    /// `--flash` on a camera with no flash, torch or LED control.
    case noFlash

    /// One line a person can act on.
    public var message: String {
        switch self {
        case .unknownControl(let name, let available):
            let list = available.isEmpty ? "the camera has no controls" : "controls: " + available.joined(separator: ", ")
            return "no camera control named '\(name)'; \(list)"
        case .readOnly(let control):
            return "control '\(control)' is read-only and cannot be set"
        case .notSettable(let control, let type):
            return "control '\(control)' is a \(type.rawValue) control and takes no value camrec can set"
        case .outOfRange(let control, let value, let minimum, let maximum, let step):
            let steps = step > 1 ? " in steps of \(step)" : ""
            return "value \(value) is out of range for '\(control)': use \(minimum)…\(maximum)\(steps)"
        case .notAMenuItem(let control, let value, let items):
            return "'\(value)' is not a choice of '\(control)': use one of \(items.joined(separator: ", "))"
        case .invalidValue(let control, let text, let type):
            let hint = type == .boolean ? "on or off" : "a whole number"
            return "'\(text)' is not a valid value for '\(control)': use \(hint)"
        case .device(let error):
            return error.message
        case .badValue(let control, let text, let allowed):
            return "'\(text)' is not a value for \(control) on this camera: use \(allowed)"
        case .malformedAssignment(let text):
            return "'\(text)' is not NAME=VALUE: write e.g. --set exposure=1/60,white-balance=4500K"
        case .noFlash:
            return "this camera has no flash, torch or LED control (no flash_led_mode, no LED mode control): leave out --flash"
        }
    }

    /// Same as `message`.
    public var description: String { message }
}

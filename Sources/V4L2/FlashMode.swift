/// `--flash on|off|auto`: a camera's flash, torch or LED.
public enum FlashMode: String, Sendable, CaseIterable, Equatable {
    /// Light on (a V4L2 flash's torch mode, a UVC LED's "On").
    case on
    /// Light off.
    case off
    /// The camera decides (a UVC LED's "Auto", lit while streaming); a V4L2 flash has no such mode.
    case auto

    /// Parses on/off/auto (also true/false, yes/no, 1/0, torch).
    public static func parse(_ text: String) -> FlashMode? {
        switch text.trimmingSpaces.lowercased() {
        case "on", "true", "yes", "1", "torch": .on
        case "off", "false", "no", "0", "none": .off
        case "auto": .auto
        default: nil
        }
    }
}

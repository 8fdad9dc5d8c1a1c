/// The names camrec's `--set` takes that mean the same on every camera, each mapped to the
/// V4L2 controls a camera has for it (found by id, then by the driver's key).
public enum FriendlyControl: String, Sendable, CaseIterable, Equatable {
    case brightness, contrast, saturation, sharpness, gain, exposure
    case exposurePriority = "exposure-priority"
    case focus
    case whiteBalance = "white-balance"
    case zoom, pan, tilt
    case powerLine = "power-line"
    case backlight

    /// The friendly name `text` stands for: the name itself, with `_` for `-` too
    /// ("white_balance"), any case.
    public static func named(_ text: String) -> FriendlyControl? {
        FriendlyControl(rawValue: String(text.trimmingSpaces.lowercased().map { $0 == "_" ? "-" : $0 }))
    }

    /// The controls behind the name, by id: the one that takes the value, then the
    /// automatic mode it switches (for exposure, focus and white balance).
    var valueIDs: [UInt32] {
        switch self {
        case .brightness: [ControlID.brightness]
        case .contrast: [ControlID.contrast]
        case .saturation: [ControlID.saturation]
        case .sharpness: [ControlID.sharpness]
        case .gain: [ControlID.gain, ControlID.analogueGain]
        case .exposure: [ControlID.exposureAbsolute, ControlID.userExposure]
        case .exposurePriority: [ControlID.exposureAutoPriority]
        case .focus: [ControlID.focusAbsolute]
        case .whiteBalance: [ControlID.whiteBalanceTemperature]
        case .zoom: [ControlID.zoomAbsolute]
        case .pan: [ControlID.panAbsolute]
        case .tilt: [ControlID.tiltAbsolute]
        case .powerLine: [ControlID.powerLineFrequency]
        case .backlight: [ControlID.backlightCompensation]
        }
    }

    /// The control that turns the automatic mode on and off, if the name has one.
    var autoID: UInt32? {
        switch self {
        case .exposure: ControlID.exposureAuto
        case .focus: ControlID.focusAuto
        case .whiteBalance: ControlID.autoWhiteBalance
        default: nil
        }
    }

    /// Driver keys to try when no control has the id (drivers outside UVC use their own ids).
    var fallbackKeys: [String] {
        switch self {
        case .exposurePriority: ["exposure_auto_priority", "exposure_dynamic_framerate"]
        case .whiteBalance: ["white_balance_temperature"]
        case .powerLine: ["power_line_frequency"]
        case .backlight: ["backlight_compensation"]
        case .zoom: ["zoom_absolute"]
        case .focus: ["focus_absolute"]
        case .pan: ["pan_absolute"]
        case .tilt: ["tilt_absolute"]
        case .exposure: ["exposure_absolute", "exposure_time_absolute"]
        default: [rawValue]
        }
    }

    /// What the name takes and what it maps to, for `--help` and docs/camera-controls.md.
    public var summary: String {
        switch self {
        case .brightness, .contrast, .saturation, .sharpness: "a number in the camera's range (\(rawValue))"
        case .gain: "a number (gain, or analogue_gain)"
        case .exposure: "auto, or a time such as 1/60, 10ms (exposure_auto + exposure_absolute, 100 µs units)"
        case .exposurePriority: "on or off: may auto-exposure lower the frame rate (exposure_auto_priority, exposure_dynamic_framerate)"
        case .focus: "auto, or a number (focus_auto + focus_absolute)"
        case .whiteBalance: "auto, or a temperature such as 4500K (white_balance_automatic + white_balance_temperature)"
        case .zoom: "a number (zoom_absolute)"
        case .pan: "a number in arc seconds (pan_absolute)"
        case .tilt: "a number in arc seconds (tilt_absolute)"
        case .powerLine: "50, 60, off or auto: anti-flicker (power_line_frequency)"
        case .backlight: "a number (backlight_compensation)"
        }
    }

    /// The control of `controls` that takes this name's value.
    func valueControl(in controls: [Control]) -> Control? {
        for id in valueIDs { if let found = controls.first(where: { $0.id == id }) { return found } }
        for key in fallbackKeys { if let found = controls.first(where: { $0.key == key }) { return found } }
        return nil
    }

    /// The control of `controls` that switches this name's automatic mode.
    func autoControl(in controls: [Control]) -> Control? {
        guard let autoID else { return nil }
        if let found = controls.first(where: { $0.id == autoID }) { return found }
        let keys: [String] = switch self {
        case .exposure: ["exposure_auto", "auto_exposure"]
        case .focus: ["focus_auto", "focus_automatic_continuous"]
        case .whiteBalance: ["white_balance_temperature_auto", "white_balance_automatic"]
        default: []
        }
        return controls.first { keys.contains($0.key) }
    }

    /// The friendly name (or `flash`) a driver control belongs to, for `camrec devices --controls`.
    public static func name(for control: Control, among controls: [Control]) -> String? {
        if FlashControl.isFlash(control) { return "flash" }
        for friendly in allCases {
            if friendly.valueControl(in: controls) == control || friendly.autoControl(in: controls) == control {
                return friendly.rawValue
            }
        }
        return nil
    }

    /// The friendly names this camera has a control for.
    public static func available(in controls: [Control]) -> [FriendlyControl] {
        allCases.filter { $0.valueControl(in: controls) != nil || $0.autoControl(in: controls) != nil }
    }
}

/// Turns `--set NAME=VALUE` and `--flash` into control writes for one camera, checked
/// against the camera's own ranges, steps and menus before anything is written. Pure: the
/// camera is the list of its controls as `VideoDevice.controls()` read them.
public enum ControlPlanner {
    /// The settings for `assignments` (in order) and `flash`, or the first problem.
    public static func plan(_ assignments: [ControlAssignment], flash: FlashMode? = nil,
                            controls: [Control]) throws(ControlError) -> [ControlSetting] {
        var settings: [ControlSetting] = []
        for assignment in assignments { settings.append(try setting(assignment, controls: controls)) }
        if let flash { settings.append(try FlashControl.setting(flash, controls: controls)) }
        return settings
    }

    /// The setting for one assignment.
    public static func setting(_ assignment: ControlAssignment, controls: [Control]) throws(ControlError) -> ControlSetting {
        if let friendly = FriendlyControl.named(assignment.name) {
            return try setting(friendly, text: assignment.value, controls: controls)
        }
        if let raw = controls.first(where: { $0.matches(assignment.name) }) {
            let value = try raw.parseValue(assignment.value)
            return ControlSetting(name: raw.key, text: assignment.value, writes: [ControlWrite(control: raw, value: value)])
        }
        throw .unknownControl(assignment.name, available: availableNames(controls))
    }

    /// "brightness, exposure, …; or the camera's own: brightness, exposure_auto, …" for messages.
    public static func availableNames(_ controls: [Control]) -> [String] {
        FriendlyControl.available(in: controls).map(\.rawValue) + controls.map(\.key).filter { FriendlyControl.named($0) == nil }
    }

    static func setting(_ friendly: FriendlyControl, text: String, controls: [Control]) throws(ControlError) -> ControlSetting {
        let value = friendly.valueControl(in: controls)
        let auto = friendly.autoControl(in: controls)
        guard value != nil || auto != nil else {
            throw .unknownControl(friendly.rawValue, available: availableNames(controls))
        }
        let lowered = text.trimmingSpaces.lowercased()
        var writes: [ControlWrite] = []
        switch friendly {
        case .exposure, .focus, .whiteBalance:
            if lowered == "auto" || lowered == "manual" {
                guard let auto else { throw .badValue(control: friendly.rawValue, text: text, allowed: allowed(friendly, value, nil)) }
                writes.append(ControlWrite(control: auto, value: try autoValue(auto, on: lowered == "auto", friendly: friendly)))
                break
            }
            guard let value, let number = manualValue(friendly, text: lowered, control: value) else {
                throw .badValue(control: friendly.rawValue, text: text, allowed: allowed(friendly, value, auto))
            }
            do {
                try value.validate(number)
            } catch {
                throw .badValue(control: friendly.rawValue, text: text, allowed: allowed(friendly, value, auto))
            }
            if let auto { writes.append(ControlWrite(control: auto, value: try autoValue(auto, on: false, friendly: friendly))) }
            writes.append(ControlWrite(control: value, value: number))
        case .powerLine:
            guard let value else { throw .unknownControl(friendly.rawValue, available: availableNames(controls)) }
            let item = switch lowered {
            case "off", "0", "none": "disabled"
            case "50": "50 hz"
            case "60": "60 hz"
            default: lowered
            }
            guard let chosen = value.menuItem(named: item) else {
                throw .badValue(control: friendly.rawValue, text: text,
                                allowed: "one of " + value.menu.map { powerLineWord($0.name) }.joined(separator: ", "))
            }
            writes.append(ControlWrite(control: value, value: chosen.index))
        default:
            guard let value else { throw .unknownControl(friendly.rawValue, available: availableNames(controls)) }
            do {
                writes.append(ControlWrite(control: value, value: try value.parseValue(text)))
            } catch {
                throw .badValue(control: friendly.rawValue, text: text, allowed: allowed(friendly, value, nil))
            }
        }
        return ControlSetting(name: friendly.rawValue, text: text, writes: writes)
    }

    /// The automatic-mode control's value for on or off.
    private static func autoValue(_ control: Control, on: Bool, friendly: FriendlyControl) throws(ControlError) -> Int64 {
        if control.type == .menu {
            // exposure_auto: 1 is manual; of the automatic modes, aperture priority is what
            // UVC webcams offer (full "Auto Mode" needs an iris they do not have).
            let manual = control.menu.first { Control.key(for: $0.name).contains("manual") }
            if !on, let manual { return manual.index }
            let automatic = control.menu.filter { $0 != manual }
            let preferred = automatic.first { Control.key(for: $0.name).contains("aperture") } ?? automatic.first
            if on, let preferred { return preferred.index }
            throw .badValue(control: friendly.rawValue, text: on ? "auto" : "manual",
                            allowed: "one of \(control.menu.map(\.label).joined(separator: ", ")) with --set \(control.key)=ITEM")
        }
        let value: Int64 = on ? 1 : 0
        try control.validate(value)
        return value
    }

    /// The number a manual value stands for: an exposure time in 100 µs units, a colour
    /// temperature, a focus position; nil when the text is none of these.
    private static func manualValue(_ friendly: FriendlyControl, text: String, control: Control) -> Int64? {
        switch friendly {
        case .exposure:
            if let time = ExposureTime.parse(text) {
                // Only UVC's exposure_absolute is in 100 µs; other drivers' units are their own.
                guard control.id == ControlID.exposureAbsolute || control.key.hasPrefix("exposure_") else { return nil }
                return snap(time.v4l2Units, control)
            }
            return Int64(text)
        case .whiteBalance:
            let number = text.hasSuffix("k") ? String(text.dropLast()) : text
            return Int64(number).map { snap($0, control) }
        default:
            return Int64(text)
        }
    }

    /// `value` moved to the nearest step of `control` (times and temperatures are rarely
    /// on a step; a value outside the range stays outside, to be refused).
    private static func snap(_ value: Int64, _ control: Control) -> Int64 {
        guard control.step > 1, value >= control.minimum, value <= control.maximum else { return value }
        let steps = ((Double(value - control.minimum) / Double(control.step)).rounded())
        return min(control.maximum, control.minimum + Int64(steps) * control.step)
    }

    /// What a friendly name takes on this camera, for error messages.
    static func allowed(_ friendly: FriendlyControl, _ value: Control?, _ auto: Control?) -> String {
        let autoWord = auto != nil ? "auto, or " : ""
        guard let value else { return "auto or manual" }
        let step = value.step > 1 ? " in steps of \(value.step)" : ""
        switch friendly {
        case .exposure where value.id == ControlID.exposureAbsolute:
            let low = ExposureTime.fromV4L2(max(1, value.minimum)), high = ExposureTime.fromV4L2(value.maximum)
            return "\(autoWord)a time from \(low) to \(high), e.g. 1/60 or 10ms (or \(value.key) \(value.minimum)…\(value.maximum) in 100 µs units)"
        case .whiteBalance:
            return "\(autoWord)a temperature from \(value.minimum)K to \(value.maximum)K\(step)"
        default:
            if value.type == .boolean { return "on or off" }
            if value.type == .menu { return "one of " + value.menu.map(\.label).joined(separator: ", ") }
            return "\(autoWord)a whole number from \(value.minimum) to \(value.maximum)\(step)"
        }
    }

    /// "50 Hz" → "50", "Disabled" → "off", for messages in the words `power-line` takes.
    private static func powerLineWord(_ item: String) -> String {
        let key = Control.key(for: item)
        if key == "disabled" { return "off" }
        if key.hasSuffix("_hz") { return String(key.dropLast(3)) }
        return key
    }

    /// The write that keeps the asked frame rate: exposure_auto_priority (dynamic frame
    /// rate) off, unless `settings` set it explicitly or it is off already. Nil when
    /// nothing needs writing; a failure when the control cannot be turned off (read-only).
    public static func keepFrameRate(controls: [Control], settings: [ControlSetting]) -> Result<ControlWrite, ControlError>? {
        guard let priority = FriendlyControl.exposurePriority.valueControl(in: controls),
              !settings.contains(where: { $0.writes.contains { $0.control.id == priority.id } }),
              priority.value != 0 else { return nil }
        do {
            try priority.validate(0)
        } catch {
            return .failure(error)
        }
        return .success(ControlWrite(control: priority, value: 0))
    }
}

extension ControlPlanner {
    /// The camera's flash, torch or LED control (what `--flash` sets), if it has one.
    public static func flashControl(in controls: [Control]) -> Control? {
        controls.first { FlashControl.isFlash($0) }
    }
}

/// Finds a camera's flash, torch or LED: V4L2's flash class (flash_led_mode: None, Flash,
/// Torch) or a UVC LED control ("LED1 Mode": Off, On, Blinking, Auto on Logitech cameras).
enum FlashControl {
    /// Whether `control` is a flash or LED mode control.
    static func isFlash(_ control: Control) -> Bool {
        control.id == ControlID.flashLEDMode || isLEDMode(control)
    }

    private static func isLEDMode(_ control: Control) -> Bool {
        let key = control.key
        return (control.type == .menu || control.type == .boolean) && key.hasPrefix("led") && key.hasSuffix("mode")
    }

    /// The write that puts the light in `mode`.
    static func setting(_ mode: FlashMode, controls: [Control]) throws(ControlError) -> ControlSetting {
        guard let control = controls.first(where: { isFlash($0) }) else { throw .noFlash }
        let wanted: [String]
        switch (control.id == ControlID.flashLEDMode, mode) {
        case (true, .on): wanted = ["torch"]
        case (true, .off): wanted = ["none", "off"]
        case (false, .on): wanted = ["on"]
        case (false, .off): wanted = ["off"]
        case (false, .auto): wanted = ["auto"]
        case (true, .auto):
            throw .badValue(control: "flash", text: mode.rawValue,
                            allowed: "on (torch) or off: this camera's flash (\(control.key)) has no automatic mode")
        }
        let value: Int64
        if control.type == .boolean {
            guard mode != .auto else {
                throw .badValue(control: "flash", text: mode.rawValue, allowed: "on or off: \(control.key) has no automatic mode")
            }
            value = mode == .on ? 1 : 0
        } else if let item = control.menu.first(where: { wanted.contains(Control.key(for: $0.name)) }) {
            value = item.index
        } else {
            let items = control.menu.map(\.label).joined(separator: ", ")
            throw .badValue(control: "flash", text: mode.rawValue,
                            allowed: "a mode \(control.key) has (\(items)), with --set \(control.key)=ITEM")
        }
        try control.validate(value)
        return ControlSetting(name: "flash", text: mode.rawValue, writes: [ControlWrite(control: control, value: value)])
    }
}

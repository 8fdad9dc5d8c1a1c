import Testing
@testable import V4L2

@Suite struct ControlTests {
    typealias F = Fixtures

    @Test func keysFollowV4L2Ctl() {
        #expect(F.autoWhiteBalance.key == "white_balance_temperature_auto")
        #expect(F.exposure.key == "exposure_absolute")
        #expect(Control.key(for: "Pan, Reset") == "pan_reset")
        #expect(Control.key(for: "  Gain  ") == "gain")
    }

    @Test func matchesByKeyNameOrID() {
        #expect(F.autoWhiteBalance.matches("white_balance_temperature_auto"))
        #expect(F.autoWhiteBalance.matches("White Balance Temperature, Auto"))
        #expect(F.brightness.matches("BRIGHTNESS"))
        #expect(F.brightness.matches("0x00980900"))
        #expect(F.brightness.matches("9963776"))
        #expect(!F.brightness.matches("contrast"))
    }

    @Test func validatesRangeStepAndMenu() {
        #expect(throws: Never.self) { try F.brightness.validate(0) }
        #expect(throws: Never.self) { try F.brightness.validate(255) }
        #expect(throws: ControlError.outOfRange(control: "Brightness", value: 256, minimum: 0, maximum: 255, step: 1)) {
            try F.brightness.validate(256)
        }
        #expect(throws: ControlError.self) { try F.exposure.validate(5) }      // not on a step of 4 from 3
        #expect(throws: Never.self) { try F.exposure.validate(7) }             // inactive controls may be set
        #expect(throws: ControlError.self) { try F.powerLine.validate(3) }
        let holes = Control(id: 1, name: "Menu", type: .menu, minimum: 0, maximum: 2, step: 1, defaultValue: 0, value: 0,
                            menu: [MenuItem(index: 0, name: "A"), MenuItem(index: 2, name: "C")])
        #expect(throws: ControlError.notAMenuItem(control: "Menu", value: "1", items: ["0: A", "2: C"])) { try holes.validate(1) }
        let readOnly = Control(id: 2, name: "Temp", type: .integer, minimum: 0, maximum: 9, step: 1, defaultValue: 0,
                               value: 0, flags: [.readOnly])
        #expect(throws: ControlError.readOnly(control: "Temp")) { try readOnly.validate(1) }
        let button = Control(id: 3, name: "Pan, Reset", type: .button, minimum: 0, maximum: 0, step: 0, defaultValue: 0, value: nil)
        #expect(throws: ControlError.self) { try button.validate(0) }
    }

    @Test func parsesTypedValues() throws {
        #expect(try F.autoWhiteBalance.parseValue("off") == 0)
        #expect(try F.autoWhiteBalance.parseValue("ON") == 1)
        #expect(try F.powerLine.parseValue("50 hz") == 1)
        #expect(try F.powerLine.parseValue("60Hz") == 2)
        let exposureMode = Control(id: 5, name: "Auto Exposure", type: .menu, minimum: 0, maximum: 3, step: 1, defaultValue: 3,
                                   value: 3, menu: [MenuItem(index: 1, name: "Manual Mode"), MenuItem(index: 3, name: "Aperture Priority Mode")])
        #expect(try exposureMode.parseValue("manual") == 1)
        #expect(try exposureMode.parseValue("aperture priority") == 3)
        #expect(throws: ControlError.self) { try exposureMode.parseValue("mode") }
        #expect(try F.powerLine.parseValue("2") == 2)
        #expect(try F.brightness.parseValue(" 200 ") == 200)
        #expect(throws: ControlError.invalidValue(control: "Brightness", text: "bright", type: .integer)) {
            try F.brightness.parseValue("bright")
        }
        #expect(throws: ControlError.self) { try F.powerLine.parseValue("100 Hz") }
        let zoom = Control(id: 4, name: "Zoom", type: .integerMenu, minimum: 0, maximum: 1, step: 1, defaultValue: 0, value: 0,
                           menu: [MenuItem(index: 0, name: "100", value: 100), MenuItem(index: 1, name: "200", value: 200)])
        #expect(try zoom.parseValue("200") == 1)
    }

    @Test func errorMessages() {
        #expect(ControlError.outOfRange(control: "Exposure", value: 5, minimum: 3, maximum: 2047, step: 4).message
            == "value 5 is out of range for 'Exposure': use 3…2047 in steps of 4")
        #expect(ControlError.unknownControl("focus", available: ["brightness", "contrast"]).message
            == "no camera control named 'focus'; controls: brightness, contrast")
        #expect(ControlError.device(.busy(path: "/dev/video0")).message.contains("busy"))
    }

    @Test func flagNames() {
        #expect(ControlFlags([.inactive, .readOnly]).names == ["read_only", "inactive"])
        #expect(ControlFlags(rawValue: 0).names.isEmpty)
    }
}

import Testing
@testable import V4L2

/// `--set` names and values against a camera described as data (a UVC webcam's controls).
@Suite struct FriendlyControlTests {
    static func integer(_ id: UInt32, _ name: String, _ min: Int64, _ max: Int64, step: Int64 = 1, value: Int64,
                        flags: ControlFlags = []) -> Control {
        Control(id: id, name: name, type: .integer, minimum: min, maximum: max, step: step, defaultValue: value,
                value: value, flags: flags)
    }

    static func boolean(_ id: UInt32, _ name: String, value: Int64, flags: ControlFlags = []) -> Control {
        Control(id: id, name: name, type: .boolean, minimum: 0, maximum: 1, step: 1, defaultValue: value, value: value, flags: flags)
    }

    static let exposureAuto = Control(id: ControlID.exposureAuto, name: "Auto Exposure", type: .menu, minimum: 0, maximum: 3,
                                      step: 1, defaultValue: 3, value: 3,
                                      menu: [MenuItem(index: 1, name: "Manual Mode"), MenuItem(index: 3, name: "Aperture Priority Mode")])
    static let exposure = integer(ControlID.exposureAbsolute, "Exposure Time, Absolute", 3, 2047, value: 250, flags: [.inactive])
    static let priority = boolean(ControlID.exposureAutoPriority, "Exposure, Dynamic Framerate", value: 1)
    static let autoWB = boolean(ControlID.autoWhiteBalance, "White Balance, Automatic", value: 1)
    static let temperature = integer(ControlID.whiteBalanceTemperature, "White Balance Temperature", 2800, 6500, step: 10, value: 5000)
    static let focusAuto = boolean(ControlID.focusAuto, "Focus, Automatic Continuous", value: 1)
    static let focus = integer(ControlID.focusAbsolute, "Focus, Absolute", 0, 250, step: 5, value: 0)
    static let zoom = integer(ControlID.zoomAbsolute, "Zoom, Absolute", 100, 400, value: 100)
    static let brightness = integer(ControlID.brightness, "Brightness", -64, 64, value: 0)
    static let powerLine = Control(id: ControlID.powerLineFrequency, name: "Power Line Frequency", type: .menu, minimum: 0,
                                   maximum: 2, step: 1, defaultValue: 1, value: 1,
                                   menu: [MenuItem(index: 0, name: "Disabled"), MenuItem(index: 1, name: "50 Hz"),
                                          MenuItem(index: 2, name: "60 Hz")])
    static let led = Control(id: 0x0a04_6d05, name: "LED1 Mode", type: .menu, minimum: 0, maximum: 3, step: 1, defaultValue: 3,
                             value: 3, menu: [MenuItem(index: 0, name: "Off"), MenuItem(index: 1, name: "On"),
                                              MenuItem(index: 2, name: "Blinking"), MenuItem(index: 3, name: "Auto")])
    static let webcam = [brightness, autoWB, powerLine, temperature, exposureAuto, exposure, priority, focus, focusAuto, zoom, led]

    func plan(_ text: String, controls: [Control] = webcam) throws(ControlError) -> [ControlSetting] {
        try ControlPlanner.plan(try ControlAssignment.parseList(text), controls: controls)
    }

    func writes(_ text: String) throws -> [String: Int64] {
        Dictionary(try plan(text).flatMap(\.writes).map { ($0.control.key, $0.value) }, uniquingKeysWith: { $1 })
    }

    @Test func assignmentsAreCommaSeparated() throws {
        #expect(try ControlAssignment.parseList("exposure=1/60, zoom = 200") ==
                [ControlAssignment(name: "exposure", value: "1/60"), ControlAssignment(name: "zoom", value: "200")])
        #expect(throws: ControlError.malformedAssignment("zoom")) { try ControlAssignment.parseList("zoom") }
        #expect(throws: ControlError.self) { try ControlAssignment.parseList("=3") }
    }

    @Test func exposureTimesAreIn100MicrosecondUnits() {
        #expect(ExposureTime.parse("1/60")?.v4l2Units == 167)
        #expect(ExposureTime.parse("10ms")?.v4l2Units == 100)
        #expect(ExposureTime.parse("0.5s")?.v4l2Units == 5000)
        #expect(ExposureTime.parse("300us")?.v4l2Units == 3)
        #expect(ExposureTime.parse("250") == nil)
        #expect(ExposureTime.parse("1/0") == nil)
        #expect(ExposureTime.fromV4L2(3).description == "1/3333 s")
        #expect(ExposureTime.fromV4L2(2047).description == "204.7 ms")
    }

    @Test func aManualExposureSwitchesAutoExposureToManualFirst() throws {
        let settings = try plan("exposure=1/60")
        #expect(settings.count == 1)
        #expect(settings[0].name == "exposure")
        #expect(settings[0].writes.map(\.control.id) == [ControlID.exposureAuto, ControlID.exposureAbsolute])
        #expect(settings[0].writes.map(\.value) == [1, 167])
        #expect(try writes("exposure=auto") == ["auto_exposure": 3])
        #expect(try writes("exposure=40") == ["auto_exposure": 1, "exposure_time_absolute": 40])
    }

    @Test func exposureOutsideTheCamerasRangeListsWhatIsAllowed() {
        #expect {
            try plan("exposure=1/8000")
        } throws: { error in
            let message = (error as? ControlError)?.message ?? ""
            return message.contains("1/3333 s") && message.contains("204.7 ms") && message.contains("auto")
        }
        #expect(throws: ControlError.self) { try plan("exposure=bright") }
    }

    @Test func whiteBalanceFocusAndPowerLine() throws {
        #expect(try writes("white-balance=4500K") == ["white_balance_automatic": 0, "white_balance_temperature": 4500])
        #expect(try writes("white_balance=4504") == ["white_balance_automatic": 0, "white_balance_temperature": 4500])
        #expect(try writes("white-balance=auto") == ["white_balance_automatic": 1])
        #expect(try writes("focus=auto") == ["focus_automatic_continuous": 1])
        #expect(try writes("focus=50") == ["focus_automatic_continuous": 0, "focus_absolute": 50])
        #expect(throws: ControlError.self) { try plan("focus=52") }   // not on a step of 5
        #expect(try writes("power-line=50") == ["power_line_frequency": 1])
        #expect(try writes("power-line=60") == ["power_line_frequency": 2])
        #expect(try writes("power-line=off") == ["power_line_frequency": 0])
        #expect {
            try plan("power-line=55")
        } throws: { error in
            (error as? ControlError)?.message.contains("off, 50, 60") == true
        }
        #expect(throws: ControlError.self) { try plan("white-balance=9000K") }
    }

    @Test func plainNamesAndRawControls() throws {
        #expect(try writes("zoom=200,brightness=-10") == ["zoom_absolute": 200, "brightness": -10])
        #expect(try writes("exposure-priority=off") == ["exposure_dynamic_framerate": 0])
        #expect(try writes("exposure_dynamic_framerate=on") == ["exposure_dynamic_framerate": 1])
        #expect(try writes("led1_mode=Blinking") == ["led1_mode": 2])
        #expect(throws: ControlError.self) { try plan("zoom=401") }
    }

    @Test func anUnknownNameListsFriendlyAndDriverNames() {
        #expect {
            try plan("saturation=10")
        } throws: { error in
            guard case .unknownControl(let name, let available)? = error as? ControlError else { return false }
            return name == "saturation" && available.contains("exposure") && available.contains("led1_mode")
                && !available.contains("saturation")
        }
    }

    @Test func flashUsesTheLEDOrTheFlashClass() throws {
        let on = try FlashControl.setting(.on, controls: Self.webcam)
        #expect(on.writes.map(\.value) == [1])
        #expect(try FlashControl.setting(.auto, controls: Self.webcam).writes.map(\.value) == [3])
        #expect(throws: ControlError.noFlash) { try FlashControl.setting(.on, controls: [Self.brightness]) }
        let flashClass = Control(id: ControlID.flashLEDMode, name: "LED Mode", type: .menu, minimum: 0, maximum: 2, step: 1,
                                 defaultValue: 0, value: 0, menu: [MenuItem(index: 0, name: "None"),
                                                                   MenuItem(index: 1, name: "Flash"), MenuItem(index: 2, name: "Torch")])
        #expect(try FlashControl.setting(.on, controls: [flashClass]).writes.map(\.value) == [2])
        #expect(try FlashControl.setting(.off, controls: [flashClass]).writes.map(\.value) == [0])
        #expect(throws: ControlError.self) { try FlashControl.setting(.auto, controls: [flashClass]) }
        #expect(FlashMode.parse("TORCH") == .on)
        #expect(FlashMode.parse("sometimes") == nil)
    }

    @Test func theFrameRateIsKeptUnlessExposurePriorityIsAskedFor() throws {
        let keep = ControlPlanner.keepFrameRate(controls: Self.webcam, settings: [])
        #expect(try keep?.get() == ControlWrite(control: Self.priority, value: 0))
        let asked = try plan("exposure-priority=on")
        #expect(ControlPlanner.keepFrameRate(controls: Self.webcam, settings: asked) == nil)
        let off = Self.boolean(ControlID.exposureAutoPriority, "Exposure, Auto Priority", value: 0)
        #expect(ControlPlanner.keepFrameRate(controls: [off], settings: []) == nil)
        let fixed = Self.boolean(ControlID.exposureAutoPriority, "Exposure, Auto Priority", value: 1, flags: [.readOnly])
        #expect(throws: ControlError.self) { try ControlPlanner.keepFrameRate(controls: [fixed], settings: [])?.get() }
    }

    @Test func friendlyNamesOfDriverControls() {
        #expect(FriendlyControl.name(for: Self.exposureAuto, among: Self.webcam) == "exposure")
        #expect(FriendlyControl.name(for: Self.temperature, among: Self.webcam) == "white-balance")
        #expect(FriendlyControl.name(for: Self.priority, among: Self.webcam) == "exposure-priority")
        #expect(FriendlyControl.name(for: Self.led, among: Self.webcam) == "flash")
        let other = Self.integer(0x0098_0903, "Hue", -10, 10, value: 0)
        #expect(FriendlyControl.name(for: other, among: Self.webcam + [other]) == nil)
        // Older kernels' names are found by id all the same.
        let old = Self.boolean(ControlID.exposureAutoPriority, "Exposure, Auto Priority", value: 1)
        #expect(FriendlyControl.exposurePriority.valueControl(in: [old]) == old)
    }
}

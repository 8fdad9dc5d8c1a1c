@testable import CamrecKit
import Testing
import V4L2

/// What a run plans for its camera's controls, before anything is written.
@Suite struct ControlPlanTests {
    static let priority = Control(id: ControlID.exposureAutoPriority, name: "Exposure, Dynamic Framerate", type: .boolean,
                                  minimum: 0, maximum: 1, step: 1, defaultValue: 1, value: 1)
    static let brightness = Control(id: ControlID.brightness, name: "Brightness", type: .integer, minimum: 0, maximum: 255,
                                    step: 1, defaultValue: 128, value: 128)
    static let led = Control(id: 0x0a04_6d05, name: "LED1 Mode", type: .menu, minimum: 0, maximum: 3, step: 1, defaultValue: 3,
                             value: 3, menu: [MenuItem(index: 0, name: "Off"), MenuItem(index: 1, name: "On"),
                                              MenuItem(index: 3, name: "Auto")])

    @Test func aRecordingTurnsExposurePriorityOff() throws {
        let plan = try ControlPlan.make(ControlRequest(), controls: [Self.brightness, Self.priority])
        #expect(plan.keepRate == ControlWrite(control: Self.priority, value: 0))
        #expect(plan.settings.isEmpty && plan.warnings.isEmpty && plan.applied.isEmpty)
        let still = try ControlPlan.make(ControlRequest(keepFrameRate: false), controls: [Self.priority])
        #expect(still.keepRate == nil)
    }

    @Test func askingForExposurePriorityWarns() throws {
        let request = try ControlRequest.parse(sets: ["exposure-priority=on"], flash: nil, keepControls: false)
        let plan = try ControlPlan.make(request, controls: [Self.priority])
        #expect(plan.keepRate == nil)
        #expect(plan.warnings.count == 1 && plan.warnings[0].contains("lower the frame rate"))
    }

    @Test func aReadOnlyPriorityIsAWarning() throws {
        let fixed = Control(id: ControlID.exposureAutoPriority, name: "Exposure, Auto Priority", type: .boolean, minimum: 0,
                            maximum: 1, step: 1, defaultValue: 1, value: 1, flags: [.readOnly])
        let plan = try ControlPlan.make(ControlRequest(), controls: [fixed])
        #expect(plan.keepRate == nil)
        #expect(plan.warnings.first?.contains("cannot keep the frame rate") == true)
    }

    @Test func flashOffWithoutAFlashIsOnlyAWarning() throws {
        let off = try ControlPlan.make(ControlRequest(flash: .off), controls: [Self.brightness])
        #expect(off.settings.isEmpty && off.warnings.first?.contains("no flash") == true)
        #expect(throws: CamrecError.self) { try ControlPlan.make(ControlRequest(flash: .on), controls: [Self.brightness]) }
        let on = try ControlPlan.make(ControlRequest(flash: .on), controls: [Self.led])
        #expect(on.applied == [AppliedControl(name: "flash", value: "on", driverControls: ["led1_mode": 1])])
    }

    @Test func badNamesAndValuesAreUsageErrors() throws {
        for text in ["hue=3", "brightness=300", "brightness=dim"] {
            let request = try ControlRequest.parse(sets: [text], flash: nil, keepControls: false)
            #expect {
                try ControlPlan.make(request, controls: [Self.brightness])
            } throws: { error in
                (error as? CamrecError)?.status == .usage
            }
        }
        #expect(throws: ValueError.self) { try ControlRequest.parse(sets: ["brightness"], flash: nil, keepControls: false) }
        #expect(throws: ValueError.self) { try ControlRequest.parse(sets: [], flash: "strobe", keepControls: false) }
    }

    @Test func theTestPatternHasNoControls() throws {
        #expect(try PreparedControls.prepare(ControlRequest(), source: .testPattern) == nil)
        #expect(throws: CamrecError.self) {
            try PreparedControls.prepare(ControlRequest(flash: .on), source: .testPattern)
        }
    }
}

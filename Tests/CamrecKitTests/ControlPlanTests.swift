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

    /// Passthrough of a camera's own H.264: its keyframe period and header repetition are set
    /// where it has the controls, never over a `--set` of them, and clamped to the range.
    @Test func passthroughSetsTheCamerasKeyframeControls() throws {
        let period = Control(id: ControlID.h264KeyframePeriod, name: "H264 I-Frame Period", type: .integer, minimum: 0,
                             maximum: 600, step: 1, defaultValue: 0, value: 0)
        let repeats = Control(id: ControlID.repeatSequenceHeader, name: "Repeat Sequence Header", type: .boolean, minimum: 0,
                              maximum: 1, step: 1, defaultValue: 0, value: 0)
        var request = ControlRequest(keepFrameRate: false)
        request.keyframePeriod = 15
        let plan = try ControlPlan.make(request, controls: [Self.brightness, period, repeats])
        #expect(plan.applied.map(\.name) == ["h264_i_frame_period", "repeat_sequence_header"])
        #expect(plan.applied.first?.keyframePeriod == 15)
        request.keyframePeriod = 900
        #expect(try ControlPlan.make(request, controls: [period]).applied.first?.value == "600")
        var asked = try ControlRequest.parse(sets: ["h264_i_frame_period=60"], flash: nil, keepControls: false)
        asked.keepFrameRate = false
        asked.keyframePeriod = 15
        #expect(try ControlPlan.make(asked, controls: [period]).applied.map(\.value) == ["60"])
        #expect(try ControlPlan.make(request, controls: [Self.brightness]).applied.isEmpty, "a camera without the controls")
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

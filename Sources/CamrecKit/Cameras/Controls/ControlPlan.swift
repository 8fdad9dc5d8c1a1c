import V4L2

/// The writes one run makes to its camera, checked against the camera's controls before
/// anything starts, and what camrec says about them.
public struct ControlPlan: Sendable, Equatable {
    /// The settings asked for, in order.
    public var settings: [ControlSetting]
    /// The write that keeps the frame rate (exposure_auto_priority off), if one is needed.
    public var keepRate: ControlWrite?
    /// Things to tell the user before the run, one line each.
    public var warnings: [String]

    /// Plans `request` for a camera with `controls`; a bad name or value is a usage error
    /// (exit 64) whose message lists what this camera allows.
    public static func make(_ request: ControlRequest, controls: [Control]) throws(CamrecError) -> ControlPlan {
        let settings: [ControlSetting]
        let assignments = request.assignments
            + (request.keyframePeriod.map { keyframeAssignments($0, controls: controls, asked: request.assignments) } ?? [])
        do {
            settings = try ControlPlanner.plan(assignments, flash: request.flash == .off && !hasFlash(controls)
                                               ? nil : request.flash, controls: controls)
        } catch {
            throw CamrecError(.usage, error.message)
        }
        var warnings: [String] = []
        if request.flash == .off, !hasFlash(controls) {
            warnings.append("--flash off: this camera has no flash, torch or LED control; nothing to turn off")
        }
        var keepRate: ControlWrite?
        switch request.keepFrameRate ? ControlPlanner.keepFrameRate(controls: controls, settings: settings) : nil {
        case .success(let write)?: keepRate = write
        case .failure(let error)?: warnings.append(ControlPlan.rateWarning(error.message))
        case nil: break
        }
        if let priority = settings.flatMap(\.writes).first(where: { $0.control.id == ControlID.exposureAutoPriority }),
           priority.value != 0 {
            warnings.append("exposure-priority is on: in low light auto-exposure may lower the frame rate; the missing frames count as dropped")
        }
        return ControlPlan(settings: settings, keepRate: keepRate, warnings: warnings)
    }

    /// The writes that give a camera's own H.264 a keyframe every `period` frames, with its
    /// parameter sets repeated: the first keyframe control it has (H.264 I-frame period,
    /// else GOP size) and the repeat control where it has one, unless `--set` names them.
    static func keyframeAssignments(_ period: Int, controls: [Control], asked: [ControlAssignment]) -> [ControlAssignment] {
        let askedNames = Set(asked.map { Control.key(for: $0.name) })
        var assignments: [ControlAssignment] = []
        let keyframe = [ControlID.h264KeyframePeriod, ControlID.gopSize].lazy
            .compactMap { id in controls.first { $0.id == id } }.first
        if let keyframe, !askedNames.contains(keyframe.key), !keyframe.flags.contains(.readOnly) {
            let value = min(max(period, Int(keyframe.minimum)), Int(keyframe.maximum))
            assignments.append(ControlAssignment(name: keyframe.key, value: "\(value)"))
        }
        if let repeatHeaders = controls.first(where: { $0.id == ControlID.repeatSequenceHeader }),
           !askedNames.contains(repeatHeaders.key), !repeatHeaders.flags.contains(.readOnly) {
            assignments.append(ControlAssignment(name: repeatHeaders.key, value: "1"))
        }
        return assignments
    }

    /// The warning when auto-exposure's lowering of the frame rate cannot be turned off.
    static func rateWarning(_ why: String) -> String {
        "cannot keep the frame rate: auto-exposure may lower it in low light (\(why)); the missing frames count as dropped"
    }

    /// Whether the camera has a flash, torch or LED control.
    static func hasFlash(_ controls: [Control]) -> Bool {
        ControlPlanner.flashControl(in: controls) != nil
    }

    /// What the JSON `started` line lists.
    public var applied: [AppliedControl] {
        settings.map { setting in
            AppliedControl(name: setting.name, value: setting.text,
                           driverControls: Dictionary(setting.writes.map { ($0.control.key, $0.value) }, uniquingKeysWith: { $1 }))
        }
    }
}

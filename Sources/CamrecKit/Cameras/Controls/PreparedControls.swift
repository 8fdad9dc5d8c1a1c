import V4L2

/// A run's camera controls, checked before anything starts: `prepare` validates the
/// request against the camera (exit 64 with what is allowed), `apply` writes it when the
/// run starts, `finish` puts the camera back when it ends (unless `--keep-controls`).
public struct PreparedControls: Sendable {
    /// The camera's controls (also for `camrec ctl SOCKET set`).
    public let camera: CameraControls
    /// The checked writes.
    public let plan: ControlPlan
    /// Whether `finish` leaves the camera as it is.
    public let keep: Bool

    /// Checks `request` against the camera of `source`; nil when there is nothing to set
    /// up (`--device test` without `--set`/`--flash`). A request for the test pattern is a
    /// usage error: it has no controls.
    public static func prepare(_ request: ControlRequest, source: VideoSource) throws(CamrecError) -> PreparedControls? {
        guard case .camera(let path, _) = source else {
            if request.setsAnything {
                throw CamrecError(.usage, "--set and --flash need a camera: the test pattern (--device test) has no controls")
            }
            return nil
        }
        let camera = CameraControls(path: path)
        let plan = try ControlPlan.make(request, controls: try camera.read())
        return PreparedControls(camera: camera, plan: plan, keep: request.keepControls)
    }

    /// Writes the plan; returns the warnings to show (the plan's, and a frame rate that
    /// cannot be kept) and the controls set, for the `started` line: those asked for, then
    /// `exposure-priority` turned off to keep the frame rate.
    public func apply() throws(CamrecError) -> (warnings: [String], controls: [AppliedControl]) {
        let (warnings, keptRate) = try camera.apply(plan)
        var controls = plan.applied
        if keptRate, let write = plan.keepRate {
            controls.append(AppliedControl(name: "exposure-priority", value: "off",
                                           driverControls: [write.control.key: write.value]))
        }
        return (plan.warnings + warnings, controls)
    }

    /// Puts back what camrec changed (unless `keep`); returns warnings for what could not be.
    public func finish() -> [String] {
        keep ? [] : camera.restore()
    }

    /// The reply to `camrec ctl SOCKET set TEXT`: the controls set, or why not.
    public func setReply(_ text: String) -> String {
        switch camera.set(text) {
        case .success(let applied): ControlReply.success(SetReply(controls: applied))
        case .failure(let error): ControlReply.error(error.message)
        }
    }

    private struct SetReply: Encodable {
        let controls: [AppliedControl]
    }
}

extension PreparedControls {
    /// `camrec ctl SOCKET set NAME=VALUE[,…]` on several cameras (`controls`, in `--device`
    /// order): checked against all before any is written; the reply is the first camera's
    /// controls, with `cameras`, every camera's. Put back at the end with the rest.
    public static func setReply(_ text: String, on controls: [PreparedControls?], devices: [String]) -> String {
        var cameras: [CameraControls] = []
        for (index, prepared) in controls.enumerated() {
            guard let prepared else {
                return ControlReply.error("camera \(index + 1) (\(devices[index])) has no controls (the test pattern): set needs cameras")
            }
            cameras.append(prepared.camera)
        }
        let names = devices.enumerated().map { "camera \($0.offset + 1) (\($0.element))" }
        switch CameraControls.set(text, on: cameras, names: names) {
        case .success(let applied):
            return ControlReply.success(SeveralSetReply(controls: applied.first ?? [],
                                                        cameras: zip(devices, applied).map { CameraSet(device: $0, controls: $1) }))
        case .failure(let error):
            return ControlReply.error(error.message)
        }
    }

    private struct SeveralSetReply: Encodable {
        let controls: [AppliedControl]
        let cameras: [CameraSet]
    }

    private struct CameraSet: Encodable {
        let device: String
        let controls: [AppliedControl]
    }
}

import V4L2

extension CameraControls {
    /// `camrec ctl SOCKET set TEXT` for several cameras (`names[i]` names `cameras[i]` in
    /// messages, e.g. "camera 2 (/dev/video2)"): checks TEXT against every camera before
    /// writing to any, so that a camera lacking a control or a value sets nothing anywhere;
    /// then writes each camera's controls, in order. Returns each camera's controls set.
    public static func set(_ text: String, on cameras: [CameraControls],
                           names: [String]) -> Result<[[AppliedControl]], CamrecError> {
        do throws(CamrecError) {
            let assignments: [ControlAssignment]
            do {
                assignments = try ControlAssignment.parseList(text)
            } catch {
                throw CamrecError(.usage, error.message)
            }
            var plans: [ControlPlan] = []
            for (index, camera) in cameras.enumerated() {
                let name = names.indices.contains(index) ? names[index] : camera.path
                do throws(CamrecError) {
                    plans.append(try ControlPlan.make(ControlRequest(assignments: assignments, keepFrameRate: false),
                                                      controls: try camera.read()))
                } catch {
                    throw CamrecError(error.kind, name + ": " + error.message)
                }
            }
            for (index, (camera, plan)) in zip(cameras, plans).enumerated() {
                let name = names.indices.contains(index) ? names[index] : camera.path
                do throws(CamrecError) {
                    _ = try camera.apply(plan)
                } catch {
                    throw CamrecError(error.kind, name + ": " + error.message)
                }
            }
            return .success(plans.map(\.applied))
        } catch {
            return .failure(error)
        }
    }
}

import Synchronization
import V4L2

/// The controls camrec sets on one camera during a run: writes a `ControlPlan` before the
/// pipeline starts, sets more while it runs (`camrec ctl SOCKET set`), and puts back every
/// control it changed, in reverse order, when the run ends (unless `--keep-controls`).
///
/// The camera is opened for each batch of writes, next to the pipeline's own file (V4L2
/// controls belong to the device, not to the open file).
public final class CameraControls: Sendable {
    /// The camera's device node (another one after `--reconnect` found it elsewhere).
    public var path: String { location.withLock { $0 } }
    private let location: Mutex<String>
    /// Each control's value before camrec first changed it, in the order of first change.
    private let originals = Mutex<[ControlWrite]>([])
    /// The value camrec last wrote to each control, by id.
    private let latest = Mutex<[UInt32: Int64]>([:])

    /// Controls for the camera at `path`.
    public init(path: String) { location = Mutex(path) }

    /// The camera is back (at `path`) with its power-on controls: writes every control camrec
    /// changed again, with the value it last wrote, in the order they were first changed.
    /// Returns a warning for each that could not be.
    public func reapply(at path: String) -> [String] {
        location.withLock { $0 = path }
        let (writes, values) = (originals.withLock { $0 }, latest.withLock { $0 })
        guard !writes.isEmpty else { return [] }
        let device: VideoDevice
        let fresh: [Control]
        do {
            device = try VideoDevice(path: path)
            fresh = try device.controls()
        } catch {
            return ["cannot set the camera's controls again after it came back: \(error.message)"]
        }
        var warnings: [String] = []
        for write in writes {
            guard let value = values[write.control.id], let control = fresh.first(where: { $0.id == write.control.id }) else { continue }
            do {
                try device.apply(ControlWrite(control: control, value: value))
            } catch {
                warnings.append("cannot set \(control.key) to \(value) again after the camera came back: \(error.message)")
            }
        }
        return warnings
    }

    /// The camera's controls as they are now.
    public func read() throws(CamrecError) -> [Control] {
        do {
            return try VideoDevice(path: path).controls()
        } catch {
            throw CamrecError(.noCamera, "cannot read the controls of \(path): \(error.message)")
        }
    }

    /// Writes the plan: the settings in order, then the frame-rate write. A setting that
    /// fails stops the run (exit 1, naming the control); a frame-rate write that fails is a
    /// warning. Returns the warnings, and whether the frame-rate write was made.
    public func apply(_ plan: ControlPlan) throws(CamrecError) -> (warnings: [String], keptRate: Bool) {
        let device: VideoDevice
        do {
            device = try VideoDevice(path: path)
        } catch {
            throw CamrecError(.noCamera, "cannot set the controls of \(path): \(error.message)")
        }
        for setting in plan.settings {
            for planned in setting.writes {
                do {
                    try record(planned, on: device)
                } catch {
                    throw CamrecError(.failure, "cannot set \(setting.name)=\(setting.text) (\(planned.control.key)): \(error.message)")
                }
            }
        }
        var warnings: [String] = []
        var keptRate = false
        if let keepRate = plan.keepRate {
            do {
                try record(keepRate, on: device)
                keptRate = true
            } catch {
                warnings.append(ControlPlan.rateWarning("\(keepRate.control.key) could not be turned off: \(error.message)"))
            }
        }
        return (warnings, keptRate)
    }

    /// Sets `text` (`NAME=VALUE[,…]`) on the running camera, checked first; returns what was
    /// set, or why nothing was.
    public func set(_ text: String) -> Result<[AppliedControl], CamrecError> {
        do throws(CamrecError) {
            let assignments: [ControlAssignment]
            do {
                assignments = try ControlAssignment.parseList(text)
            } catch {
                throw CamrecError(.usage, error.message)
            }
            let plan = try ControlPlan.make(ControlRequest(assignments: assignments, keepFrameRate: false), controls: try read())
            _ = try apply(plan)
            return .success(plan.applied)
        } catch {
            return .failure(error)
        }
    }

    /// Puts back every control camrec changed, last changed first; returns a warning for each
    /// that could not be.
    public func restore() -> [String] {
        let writes = originals.withLock { taken in
            defer { taken = [] }
            return taken
        }
        guard !writes.isEmpty else { return [] }
        let device: VideoDevice
        do {
            device = try VideoDevice(path: path)
        } catch {
            return ["cannot put the camera's controls back: \(error.message)"]
        }
        var warnings: [String] = []
        for original in writes.reversed() {
            guard let value = original.previous else { continue }
            do {
                try device.apply(ControlWrite(control: original.control, value: value))
            } catch {
                warnings.append("cannot put \(original.control.key) back to \(value): \(error.message)")
            }
        }
        return warnings
    }

    /// The writes `restore` would make, last changed first (for tests and reports).
    public var pendingRestore: [ControlWrite] {
        originals.withLock { $0.reversed().compactMap { w in w.previous.map { ControlWrite(control: w.control, value: $0) } } }
    }

    private func record(_ planned: ControlWrite, on device: VideoDevice) throws(ControlError) {
        try device.apply(planned)
        latest.withLock { $0[planned.control.id] = planned.value }
        originals.withLock { list in
            if !list.contains(where: { $0.control.id == planned.control.id }) { list.append(planned) }
        }
    }
}

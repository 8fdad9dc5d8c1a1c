/// The camera controls of a run's cameras (`--set`, `--flash`, `--keep-controls`), for
/// every topology alike: checked against each camera before anything starts, set as the
/// run starts, set again when a camera comes back after `--reconnect`, answered for
/// `camrec ctl SOCKET set`, and put back at the end. With several cameras, what is said
/// of one names it ("camera 2 (/dev/video2): …").
public struct CameraControlSet: Sendable {
    private let prepared: [PreparedControls?]
    private let devices: [String]
    /// Per camera: the keyframe period asked of a camera whose H.264 is stored as it comes.
    private let keyframePeriods: [Int?]
    private let warn: @Sendable (String) -> Void

    /// Checks `request` against each camera of `setup` (`devices` as given, for messages);
    /// `check` false (`--print-pipeline`): nothing is read or set. `warn` shows a warning.
    public init(_ request: ControlRequest, setup: RunSetup, devices: [String], check: Bool,
                warn: @escaping @Sendable (String) -> Void) throws(CamrecError) {
        self.devices = devices
        self.warn = warn
        var prepared: [PreparedControls?] = []
        var periods: [Int?] = []
        for (index, camera) in setup.cameras.enumerated() {
            var asked = request
            if camera.encoder.isPassthrough, camera.encoder.codec == .h264 {
                // The camera makes the keyframes: asked for where it has the control.
                asked.keyframePeriod = camera.encoder.gop(rate: camera.rate)
            }
            periods.append(asked.keyframePeriod)
            guard check else {
                prepared.append(nil)
                continue
            }
            do throws(CamrecError) {
                prepared.append(try PreparedControls.prepare(asked, source: camera.source))
            } catch {
                throw Self.named(error, camera: index, devices: devices)
            }
        }
        self.prepared = prepared
        keyframePeriods = periods
    }

    /// Sets each camera's controls now, and puts the set ones into `setup` (the started
    /// line lists them; a camera back after `--reconnect` gets them again).
    public func apply(to setup: inout RunSetup) throws(CamrecError) {
        for (index, controls) in prepared.enumerated() {
            guard let controls else { continue }
            let applied: (warnings: [String], controls: [AppliedControl])
            do throws(CamrecError) {
                applied = try controls.apply()
            } catch {
                throw Self.named(error, camera: index, devices: devices)
            }
            for warning in applied.warnings { warn(name(index) + warning) }
            setup.setControls(applied.controls, camera: index, keyframePeriod: keyframePeriods[index])
        }
        let prepared = prepared
        setup.onCameraBack { camera, path in
            prepared.indices.contains(camera) ? prepared[camera]?.camera.reapply(at: path) ?? [] : []
        }
    }

    /// What answers `camrec ctl SOCKET set`: nil when the one camera has no controls (the
    /// test pattern).
    public var setHandler: ControlServer.SetHandler? {
        let prepared = prepared
        let devices = devices
        guard prepared.count > 1 else {
            return prepared.first.flatMap { $0 }.map { controls in { @Sendable text in controls.setReply(text) } }
        }
        return { @Sendable text in PreparedControls.setReply(text, on: prepared, devices: devices) }
    }

    /// Puts back what camrec changed (once: a camera forgets what it restored), with a
    /// warning for what could not be.
    public func restore() {
        for (index, controls) in prepared.enumerated() {
            for warning in controls?.finish() ?? [] { warn(name(index) + warning) }
        }
    }

    /// "camera 2 (/dev/video2): " with several cameras; nothing with one.
    private func name(_ index: Int) -> String {
        prepared.count > 1 ? "camera \(index + 1) (\(devices[index])): " : ""
    }

    /// `error` naming camera `index`, unless it names its device already or the run has one camera.
    private static func named(_ error: CamrecError, camera index: Int, devices: [String]) -> CamrecError {
        guard devices.count > 1, !error.message.contains(devices[index]) else { return error }
        return CamrecError(error.kind, "camera \(index + 1) (\(devices[index])): " + error.message)
    }
}

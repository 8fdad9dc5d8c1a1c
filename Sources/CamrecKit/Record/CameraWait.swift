import V4L2

/// The wait for a lost camera (`--reconnect`): by its identity, at whatever /dev/videoN it
/// comes back, polled five times a second (a USB camera takes a second or more to come
/// back) until it is there, the deadline passes, or the wait is called off. One camera's
/// run (`Recorder`) and a canvas's cell (`CellReconnection`) wait the same way.
struct CameraWait {
    /// How often the camera is looked for.
    static let pollInterval: Duration = .milliseconds(200)

    /// How the wait ended.
    enum Outcome {
        case back(CaptureDevice)
        case timedOut
        case calledOff
    }

    let identity: DeviceIdentity
    /// When to give up; nil: wait for ever.
    let deadline: ContinuousClock.Instant?

    init(for identity: DeviceIdentity, timeout: TimeSpec?, from start: ContinuousClock.Instant = .now) {
        self.identity = identity
        deadline = timeout.map { start + .nanoseconds($0.nanoseconds) }
    }

    /// Waits on the calling thread. `calledOff` is asked before each look; `pause` sleeps
    /// between looks and may return early (a stop request wakes it).
    func wait(calledOff: () -> Bool, pause: (Duration) -> Void) -> Outcome {
        while true {
            if calledOff() { return .calledOff }
            // A camera that is back but busy or refused is not usable yet: keep waiting.
            if let device = try? DeviceDiscovery.locate(identity) { return .back(device) }
            if let deadline, ContinuousClock.now >= deadline { return .timedOut }
            pause(Self.pollInterval)
        }
    }
}

/// A run's logic across its pipelines, as values: with `--reconnect`, a lost camera ends
/// its pipeline's movie, the run waits for the same camera and goes on in a new pipeline
/// and a new movie. `Recorder` runs the pipelines and waits for the camera; this decides
/// whether the run goes on. Tested without GStreamer.
///
/// States: `running` (a pipeline records) → `waiting` (the camera was lost, or failed as it
/// came back) → `running` again, or `done`.
struct RunMachine {
    /// Pipelines after a reconnect that fail before their first frame, in a row, before the
    /// run gives up: a camera that comes back flaky is waited for again, a few times.
    static let failedRestartLimit = 5

    enum State: Equatable {
        case running
        case waiting
        case done
    }

    enum Event: Equatable {
        /// The pipeline ended (its movie finalised or kept) for `reason`; `stopAsked`: a stop
        /// was requested (a signal, the control socket, a key) before or while it ended.
        case pipelineEnded(StopReason, message: String?, stopAsked: Bool)
        /// The pipeline failed with `error` (before its first frame: a camera that is busy,
        /// gone or refuses the format).
        case pipelineFailed(CamrecError, stopAsked: Bool)
        /// The lost camera is back; `framesLeft` of `--max-duration` are left to record
        /// (nil without a limit).
        case cameraBack(framesLeft: Int?)
        /// It did not come back within `--reconnect-timeout`; `camera` names it.
        case waitTimedOut(camera: String, timeout: TimeSpec?)
        /// A stop was asked for while waiting.
        case waitStopped(StopReason)
        /// The next movie's file could not be claimed.
        case nextMovieRefused(CamrecError)
    }

    enum Action: Equatable {
        /// Say the camera is lost (`lost`: why) and wait for it to come back.
        case waitForCamera(lost: String)
        /// Claim the next movie and start a pipeline with the camera where it is now.
        case startNext
        /// The run ends: its result says `reason` and `message`.
        case end(StopReason, message: String?)
        /// The run fails with this error (its first pipeline failed: nothing was recorded).
        case fail(CamrecError)
    }

    private(set) var state: State = .running
    /// Whether a lost camera is waited for: `--reconnect`, and a camera whose identity
    /// could be read before the first pipeline opened it.
    private let reconnects: Bool
    /// Pipelines that ran, failed ones included.
    private var pipelines = 0
    private var failedRestarts = 0

    init(reconnects: Bool) {
        self.reconnects = reconnects
    }

    mutating func handle(_ event: Event) -> [Action] {
        switch (state, event) {
        case (.running, .pipelineEnded(let reason, let message, let stopAsked)):
            pipelines += 1
            failedRestarts = 0
            guard reason == .cameraLost, reconnects, !stopAsked else { return end(reason, message) }
            state = .waiting
            return [.waitForCamera(lost: message ?? "camera lost")]

        case (.running, .pipelineFailed(let error, let stopAsked)):
            pipelines += 1
            guard pipelines > 1 else {
                state = .done
                return [.fail(error)]
            }
            failedRestarts += 1
            guard reconnects, failedRestarts < Self.failedRestartLimit, !stopAsked else { return end(.error, error.message) }
            state = .waiting
            return [.waitForCamera(lost: "the camera failed as it came back: \(error.message)")]

        case (.waiting, .cameraBack(let framesLeft)):
            if let framesLeft, framesLeft <= 0 { return end(.maxDuration, nil) }
            state = .running
            return [.startNext]

        case (.waiting, .waitTimedOut(let camera, let timeout)):
            let limit = timeout.map { " within \($0.description)" } ?? ""
            return end(.cameraLost, "the camera did not come back\(limit): \(camera)")

        case (.waiting, .waitStopped(let reason)):
            return end(reason, "stopped while waiting for the camera to come back")

        case (.running, .nextMovieRefused(let error)):
            return end(.error, error.message)

        default:
            return []
        }
    }

    private mutating func end(_ reason: StopReason, _ message: String?) -> [Action] {
        state = .done
        return [.end(reason, message: message)]
    }
}

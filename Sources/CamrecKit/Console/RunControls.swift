#if canImport(Glibc)
import Glibc
#endif

/// What drives a running recording, wired the same way for every layout (one camera,
/// several in movies of their own, a canvas): the stop signals, SIGUSR1 (a still),
/// SIGUSR2 (an event clip), the control socket (`--control`), and the keys s, c and q on
/// the terminal and in the preview window. The answers are ``ControlAnswers``'s.
/// Block `SignalWatcher.recordingSignals` before any thread of the run starts.
public struct RunControls {
    private let server: ControlServer?
    private let keys: KeyboardControl

    /// Starts watching the signals, listening at `controlPath` (nil: no socket) and reading keys.
    /// `setHandler` answers `ctl set` (nil: the run has no camera controls). `onStopSignal`
    /// is told of each stop signal too, after the run (e.g. to give up the wait for the
    /// `--on-file` commands once the run has ended).
    public init(run: some ControlledRun, controlPath: String?, setHandler: ControlServer.SetHandler?,
                previews: [PreviewWindow] = [], console: Console,
                onStopSignal: (@Sendable () -> Void)? = nil) throws(CamrecError) {
        SignalWatcher.startBatched(SignalWatcher.recordingSignals) { signals in
            for received in signals where received == SIGUSR1 {
                if let line = ControlAnswers.stillAsked(run, by: .signal) { console.say(line) }
            }
            for received in signals where received == SIGUSR2 {
                if let line = ControlAnswers.clipAsked(run) { console.say(line) }
            }
            let stops = signals.count { $0 != SIGUSR1 && $0 != SIGUSR2 }
            if stops > 0 {
                run.requestStop(.signal, requests: stops)
                onStopSignal?()
            }
        }
        server = try controlPath.map { path throws(CamrecError) in
            try ControlServer(path: path, setHandler: setHandler,
                              clipHandler: { argument in ControlAnswers.clip(argument, run: run) }) { command in
                ControlAnswers.answer(command, run: run)
            }
        }
        let still: @Sendable () -> Void = { if let line = ControlAnswers.stillAsked(run, by: .key) { console.say(line) } }
        let clip: @Sendable () -> Void = { if let line = ControlAnswers.clipAsked(run) { console.say(line) } }
        let stop: @Sendable () -> Void = { run.requestStop(.control, requests: 1) }
        keys = KeyboardControl(onStill: still, onStop: stop, onClip: clip)
        // Several cameras: the keys work in every camera's window.
        for window in previews {
            window.onKey { key in
                switch key.lowercased() {
                case "s": still()
                case "c": clip()
                case "q": stop()
                default: break
                }
            }
        }
    }

    /// Stops listening and gives the terminal back.
    public func end() {
        server?.shutdown()
        keys.restore()
    }
}

import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// One `camrec trim`: the trim of `request`, stopped by SIGINT, SIGTERM or SIGHUP (its
/// temporary file removed), its progress and result shown on a console.
public struct TrimmingJob: Sendable {
    /// The signals that stop a trim (its temporary file is removed; exit status 130).
    public static let stopSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    /// What to cut, and where the result goes.
    public var request: TrimRequest
    /// `--on-file`: the command run for the movie written; nil: none.
    public var hooks: HookSettings?

    /// The trim of `request`.
    public init(request: TrimRequest) {
        self.request = request
    }

    /// Trims, showing progress and the result on `console`: 0, or the error.
    public func run(console: Console) throws(CamrecError) -> ExitStatus {
        let printer = TrimPrinter(console: console)
        let control = TrimControl(onProgress: printer.progress(of: request.input))
        Self.stopOnSignals(control, console: console, what: "trim")
        let result = try Trimmer.run(request, control: control)
        printer.show(result)
        if let hooks {
            HookQueue.runOnce(hooks, for: HookedFile(path: result.output, kind: "trim", duration: result.duration, frames: result.frames,
                                                      line: Console.jsonLine(result, type: "result") ?? ""),
                              console: console)
        }
        return .success
    }

    /// Blocks the stop signals (call before GStreamer starts any thread, so that they
    /// reach only the watcher) and watches them: the first cancels `control` (its job
    /// unwinds and removes its temporary file), a second removes that file and exits at once.
    static func stopOnSignals(_ control: TrimControl, console: Console, what: String) {
        SignalWatcher.block(Self.stopSignals)
        let received = Mutex(0)
        SignalWatcher.start(Self.stopSignals) { signal in
            let count = received.withLock { count -> Int in
                count += 1
                return count
            }
            if count == 1 {
                control.cancel(reason: "SIG" + SignalWatcher.name(signal))
            } else {
                control.removeTemporaryFile()
                console.fail(CamrecError(.interrupted, "\(what) aborted by a second signal: nothing was written and the input is untouched"))
                _exit(ExitStatus.aborted.rawValue)
            }
        }
    }
}

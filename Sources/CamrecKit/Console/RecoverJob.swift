#if canImport(Glibc)
import Glibc
#endif

/// One `camrec recover`: each FILE of `request` in turn, a line for each, stopped by SIGINT,
/// SIGTERM or SIGHUP (the file being written is removed).
public struct RecoverJob: Sendable {
    /// The signals that stop a recovery (the file being written is removed; exit status 130).
    public static let stopSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    /// The FILEs, and where their movies go.
    public var request: RecoverRequest

    /// The recovery of `request`.
    public init(request: RecoverRequest) {
        self.request = request
    }

    /// Recovers every FILE (those after a refused one too), showing each on `console`: 0,
    /// or the status of the first refused FILE.
    public func run(console: Console) -> ExitStatus {
        let control = RecoverControl()
        SignalWatcher.block(Self.stopSignals)
        SignalWatcher.start(Self.stopSignals) { signal in
            control.abandon()
            console.fail(CamrecError(.interrupted, "recovery stopped by SIG\(SignalWatcher.name(signal)): the file "
                                     + "being written was removed; inputs are untouched"))
            _exit(ExitStatus.aborted.rawValue)
        }
        let printer = RecoverPrinter(console: console)
        var status = ExitStatus.success
        for input in request.inputs {
            let result: RecoverResult
            do {
                result = try MovieRecovery.recover(input, to: request.destination, force: request.force, control: control)
            } catch {
                result = .refused(input, error)
                if status == .success { status = error.status }
            }
            printer.show(result)
        }
        return status
    }
}

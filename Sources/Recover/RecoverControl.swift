import CamrecCore
#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// What a recovery shares with a signal handler: the temporary file being written, so that
/// a stop removes it, and the one moment it becomes the output, so that a stop comes
/// either before it (nothing is left behind) or after it (the output is whole).
public final class RecoverControl: Sendable {
    private let temporary = Mutex<String?>(nil)
    private let abandoned = Mutex(false)

    /// Creates a control with no file in progress.
    public init() {}

    /// Removes the temporary file in progress, if any; nothing is published afterwards.
    /// For a signal handler, which then exits.
    public func abandon() {
        abandoned.withLock { $0 = true }
        temporary.withLock { path in
            if let path { unlink(path) }
            path = nil
        }
    }

    /// Records the temporary file now being written (nil: none).
    func track(_ path: String?) throws(CamrecError) {
        try temporary.withLock { (current: inout String?) throws(CamrecError) in
            if path != nil, abandoned.withLock({ $0 }) {
                throw CamrecError(.interrupted, "recovery interrupted")
            }
            current = path
        }
    }

    /// Publishes `path` as `final` (see ``Destination/publish(_:as:replace:)``) unless
    /// the recovery was abandoned meanwhile.
    func publish(_ path: String, as final: String, replace: Bool) throws(CamrecError) {
        try temporary.withLock { (current: inout String?) throws(CamrecError) in
            guard current == path else { throw CamrecError(.interrupted, "recovery interrupted") }
            try Destination.publish(path, as: final, replace: replace)
            current = nil
        }
    }

    /// Publishes `path` under the first free name of `name(1)`, `name(2)`, … (see
    /// ``Destination/publishUnderFreeName(_:tries:_:)``) unless the recovery was abandoned
    /// meanwhile; then runs `after` (still before a stop can come in). Returns the name taken.
    func publishUnderFreeName(_ path: String, _ name: (Int) -> String,
                              after: (String) -> Void = { _ in }) throws(CamrecError) -> String {
        try temporary.withLock { (current: inout String?) throws(CamrecError) -> String in
            guard current == path else { throw CamrecError(.interrupted, "recovery interrupted") }
            let final = try Destination.publishUnderFreeName(path, name)
            current = nil
            after(final)
            return final
        }
    }
}

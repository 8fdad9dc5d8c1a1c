import CamrecCore

/// Trim's failures are `CamrecError`s; these make the common ones.
extension CamrecError {
    static func invalidInput(_ message: String) -> CamrecError { CamrecError(.invalidInput, message) }
    static func failed(_ message: String) -> CamrecError { CamrecError(.failure, message) }

    static func stalled(_ stage: String, after limit: Duration) -> CamrecError {
        let (seconds, attoseconds) = limit.components
        let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        let text = milliseconds % 1000 == 0 ? "\(seconds) s" : "\(milliseconds) ms"
        return CamrecError(.stalled, "\(stage) made no progress for \(text) and was given up on (stalled)")
    }

    static func interrupted(by reason: String) -> CamrecError {
        CamrecError(.interrupted, "trim interrupted by \(reason): nothing was written and the input is untouched")
    }
}

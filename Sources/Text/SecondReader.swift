import CamrecCore
import CTesseractShim
#if canImport(Glibc)
import Glibc
#endif

/// A second Tesseract instance on a thread of its own, which reads a picture's other
/// polarity (``TextRecognizer/otherPolarity(of:scaled:factor:lightOnDark:)``) while the
/// recognizer's own instance reads the first: on a busy picture, whose first reading is
/// seldom sure enough to be the only one, the two readings then take the time of one where
/// a core is free. Its instance is made, used and freed on its thread only (one API
/// instance per thread). One picture at a time: ``begin(_:)``, then ``end()`` before the next.
final class SecondReader: Sendable {
    /// A picture to read in its other polarity.
    struct Job: Sendable {
        let picture: GreyImage
        let factor: Int
        let lightOnDark: Bool
    }

    private struct State: Sendable {
        /// nil while the models load; then whether they did.
        var loaded: Bool?
        var job: Job?
        var result: Result<[TextResult.RawWord], CamrecError>?
        /// Between ``begin(_:)`` and ``end()``.
        var busy = false
        var closed = false
        var ended = false
        /// The readings begun.
        var begun = 0
    }

    private let state = Monitor(State())

    /// Starts the thread, which loads the models of `languages` ("eng+deu", installed in
    /// `folder`) alongside the recognizer's own.
    init(folder: String, languages: String) {
        NamedThread.start("camrec-text-2") { [state] in
            var failure: UnsafeMutablePointer<CChar>?
            let engine = camrec_tesseract_new(folder, languages, TextRecognizer.pageSegmentation, &failure)
            free(failure)
            state.withLockWaking { $0.loaded = engine != nil }
            if let engine {
                while let job = state.wait(until: { $0.job != nil || $0.closed }, then: { state, _ -> Job? in
                    defer { state.job = nil }
                    return state.closed ? nil : state.job
                }) {
                    let other = TextRecognizer.otherPolarity(of: job.picture, scaled: nil, factor: job.factor, lightOnDark: job.lightOnDark)
                    let result = Result { () throws(CamrecError) in try TextRecognizer.read(other, with: engine) }
                    state.withLockWaking { $0.result = result }
                }
                camrec_tesseract_free(engine)
            }
            state.withLockWaking { $0.ended = true }
        }
    }

    /// Hands `job` to the thread, once its models are loaded; false when they could not be
    /// (the caller reads the other polarity itself).
    func begin(_ job: Job) -> Bool {
        // (A wait's body wakes no one: the job is handed over by a waking change.)
        guard state.wait(until: { $0.loaded != nil }, then: { state, _ in state.loaded == true }) else { return false }
        return state.withLockWaking { state in
            guard !state.closed, !state.busy else { return false }
            state.job = job
            state.result = nil
            state.busy = true
            state.begun += 1
            return true
        }
    }

    /// How many readings it was given (for tests: whether a picture was read ahead).
    var readings: Int { state.withLock(\.begun) }

    /// Waits for the reading begun by ``begin(_:)`` and gives it.
    func end() -> Result<[TextResult.RawWord], CamrecError> {
        state.wait(until: { $0.result != nil }) { state, _ in
            defer {
                state.result = nil
                state.busy = false
            }
            return state.result ?? .success([])
        }
    }

    /// Ends the thread (after the reading under way, if any) and waits until its instance
    /// is freed: the process may end right after.
    func close() {
        state.withLockWaking { $0.closed = true }
        state.wait(until: { $0.ended }) { _, _ in }
    }
}

extension Element {
    /// `setState`, explained: when the change fails, the error an element posted while it
    /// ran (it names the element and the cause, e.g. a busy camera) is thrown instead of
    /// the bare `.stateChange`. Nothing is taken off the bus: that error and every other
    /// message stay queued for the bus's reader. An error posted before the call (by a
    /// streaming thread) is left to the reader, and the bare `.stateChange` is thrown.
    @discardableResult
    public func setStateThrowingPostedError(_ state: State) throws(GStreamerError) -> StateChange {
        let errors = ErrorWatch(errorsOf: self)
        defer { errors.stop() }
        do {
            return try setState(state)
        } catch {
            if case .stateChange = error, let failure = errors.failure { throw .element(failure) }
            throw error
        }
    }
}

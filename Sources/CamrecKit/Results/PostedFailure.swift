import GStreamer

extension Pipeline {
    /// `setState`, for the code that reads this pipeline's bus: when the change fails, the
    /// error an element posted about it (which names the element and the cause, e.g. a busy
    /// camera) is taken off the bus and thrown instead of the bare `.stateChange`. Messages
    /// queued before that error go with it, as the reader would have read past them.
    @discardableResult
    func setStateThrowingPostedError(_ state: State) throws(GStreamerError) -> StateChange {
        do {
            return try setState(state)
        } catch {
            if case .stateChange = error, let failure = bus?.popError() { throw .element(failure) }
            throw error
        }
    }
}

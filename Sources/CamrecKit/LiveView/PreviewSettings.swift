/// What `--preview` asks of a recording: the window itself is a `PreviewWindow`.
public struct PreviewSettings: Sendable, Equatable {
    /// Closing the window stops the recording (`--preview-stops`), as the key q does.
    public var stopsRecording: Bool

    /// A preview; `stopsRecording` as `--preview-stops`.
    public init(stopsRecording: Bool = false) {
        self.stopsRecording = stopsRecording
    }

    /// The element names the recording pipeline's preview branch uses.
    static let queueName = "previewqueue"
    static let sinkName = "preview"
}

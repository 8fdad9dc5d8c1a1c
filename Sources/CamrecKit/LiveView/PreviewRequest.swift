/// The preview window a recording asks for (`--preview`, `--preview=auto`, `--preview-stops`).
/// ``open(environment:warn:)`` opens it, before any camera is.
public struct PreviewRequest: Sendable, Equatable {
    /// How much a missing display matters.
    public enum Mode: Sendable, Equatable {
        /// No preview.
        case off
        /// `--preview`: no display is an error (exit 64).
        case required
        /// `--preview=auto`: no display is a warning, and no window.
        case ifPossible
    }

    /// Whether a window is asked for, and how much a missing display matters.
    public var mode: Mode
    /// `--preview-stops`: closing the window stops the recording.
    public var stops: Bool

    /// A preview `mode`; `stops`: closing the window stops the recording.
    public init(mode: Mode, stops: Bool = false) {
        self.mode = mode
        self.stops = stops
    }

    /// The settings for the recording; nil without a preview.
    public var settings: PreviewSettings? { mode == .off ? nil : PreviewSettings(stopsRecording: stops) }

    /// The window, opened before the camera is: nil when none is asked for, or with
    /// `--preview=auto` when none can be opened (`warn` then says why).
    public func open(environment: [String: String], warn: (String) -> Void) throws(CamrecError) -> PreviewWindow? {
        guard mode != .off else { return nil }
        let display = DisplayEnvironment(environment: environment)
        let sink = environment["CAMREC_PREVIEW_SINK"].flatMap { $0.isEmpty ? nil : $0 }
        do {
            return try PreviewWindow.open(display: display, sink: sink)
        } catch {
            guard mode == .ifPossible else {
                let what = error == .noDisplay ? "a display, and DISPLAY and WAYLAND_DISPLAY are unset" : "a window, and \(error.reason)"
                throw CamrecError(.usage, "--preview needs \(what): run camrec in a desktop session (or ssh -X), or use --preview=auto to record without a window when there is none")
            }
            warn("--preview=auto: no preview window (\(error.reason)); recording without one")
            return nil
        }
    }
}

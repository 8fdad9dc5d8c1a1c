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

    /// `--preview` (`given`), its attached value (`--preview=auto`: `value`) and
    /// `--preview-stops`, as given. Every refusal is a usage error.
    public static func parse(given: Bool, value: String?, stops: Bool) throws(CamrecError) -> PreviewRequest {
        let mode: Mode
        switch value {
        case nil: mode = given ? .required : .off
        case "auto": mode = .ifPossible
        case let other?: throw OptionValue.refusal("--preview=\(other): unknown value: write --preview, or --preview=auto to record without a window when there is no display")
        }
        if stops, mode == .off {
            throw OptionValue.refusal("--preview-stops needs --preview (closing the preview window is what stops the recording)")
        }
        return PreviewRequest(mode: mode, stops: stops)
    }

    /// The settings for the recording; nil without a preview.
    public var settings: PreviewSettings? { mode == .off ? nil : PreviewSettings(stopsRecording: stops) }

    /// The window, opened before the camera is: nil when none is asked for, or with
    /// `--preview=auto` when none can be opened (`warn` then says why).
    public func open(environment: [String: String], warn: (String) -> Void) throws(CamrecError) -> PreviewWindow? {
        guard mode != .off else { return nil }
        do {
            return try PreviewWindow.open(environment: environment)
        } catch {
            guard mode == .ifPossible else {
                throw CamrecError(.usage, "--preview needs \(error.needs): run camrec in a desktop session (or ssh -X), or use --preview=auto to record without a window when there is none")
            }
            warn("--preview=auto: no preview window (\(error.reason)); recording without one")
            return nil
        }
    }
}

extension PreviewWindow {
    /// A window on the display `environment` names (DISPLAY, WAYLAND_DISPLAY), with the sink
    /// CAMREC_PREVIEW_SINK names, if any.
    static func open(environment: [String: String]) throws(PreviewUnavailable) -> PreviewWindow {
        try open(display: DisplayEnvironment(environment: environment),
                 sink: environment["CAMREC_PREVIEW_SINK"].flatMap { $0.isEmpty ? nil : $0 })
    }
}

extension PreviewUnavailable {
    /// What a preview needs that is missing, for an error message ("a display, and …").
    var needs: String {
        self == .noDisplay ? "a display, and DISPLAY and WAYLAND_DISPLAY are unset" : "a window, and \(reason)"
    }
}

import FoundationEssentials
import GStreamer
import Synchronization

/// The live picture in a window (`--preview`, `camrec preview`): a pipeline of its own,
/// `appsrc ! videoconvert ! textoverlay ! videoconvert ! SINK sync=false`, fed the frames that
/// the recording's leaky "preview" appsink lets through.
///
/// Why a pipeline of its own: the window's sink fails when the window is closed ("Output
/// window was closed"), and in the recording's pipeline that error would travel up the tee
/// and stop the camera. Here it stays in this pipeline; the recording's branch only ever
/// drops frames (its queue and appsink hold one frame and drop the rest), and this
/// appsrc drops too (`leaky-type=downstream`), so a slow display never holds up the movie.
///
/// Open it before the camera (a display that cannot be opened is a usage error), hand it
/// to the recorder, and `close()` it at the end.
public final class PreviewWindow: Sendable {
    /// The sink that shows the window (e.g. "ximagesink"), as used in the pipeline.
    public let sink: String
    private let pipeline: Pipeline
    private let source: AppSrc
    private let overlay: Element
    private let shared = Shared()
    /// Sees the keys pressed in the window (navigation events, travelling up from the sink).
    private let keyWatch: Pad

    /// What the bus thread and the streaming thread share.
    private final class Shared: Sendable {
        struct State {
            /// The status text drawn last.
            var text = ""
            /// Why the window is gone; nil while it shows.
            var closed: String?
            /// Called once when the window goes (closed by the user, or failed).
            var onClose: (@Sendable (String) -> Void)?
            /// Called with each key pressed in the window.
            var onKey: (@Sendable (String) -> Void)?
            /// Removes the key probe.
            var keyToken: ProbeToken?
            /// `close()` was called.
            var stopped = false
        }
        let state = Mutex(State())
    }

    /// The preview pipeline for `sink` (gst-launch syntax: one element, or a chain ending in one).
    static func description(sink: String) -> String {
        "appsrc name=previewsrc is-live=true format=time max-buffers=2 leaky-type=downstream block=false"
            + " ! videoconvert ! textoverlay name=previewstatus valignment=top halignment=left"
            + " shaded-background=true font-desc=\"Sans Bold 14\" text=\"\""
            + " ! videoconvert ! \(sink) name=window sync=false"
    }

    /// Opens the window's pipeline on `display` (the window itself appears with the first
    /// frame). The sinks of `display.sinkCandidates` that are installed are tried in order;
    /// `sink` (gst-launch syntax, e.g. from `CAMREC_PREVIEW_SINK`) replaces them. Throws when
    /// there is no display or none of them can open it.
    public static func open(display: DisplayEnvironment, sink override: String? = nil) throws(PreviewUnavailable) -> PreviewWindow {
        guard display.isAvailable || override != nil else { throw .noDisplay }
        var candidates = [String]()
        if let override {
            candidates = [override]
        } else {
            candidates = display.sinkCandidates.filter { name in ((try? ElementFactory.find(name)) ?? nil) != nil }
            if candidates.isEmpty { candidates = ["autovideosink"] }
        }
        var failures: [String] = []
        for candidate in candidates {
            do {
                return try PreviewWindow(sink: candidate)
            } catch {
                failures.append(candidate + ": " + Self.describe(error))
            }
        }
        throw .cannotOpen(display: display.description, failures: failures)
    }

    private init(sink: String) throws(GStreamerError) {
        let pipeline = try Pipeline.withBuiltIns(Self.description(sink: sink))
        do {
            source = try AppSrc(pipeline.element(named: "previewsrc"))
            overlay = try pipeline.element(named: "previewstatus")
            keyWatch = try overlay.staticPad("src")
            // READY opens the display: a display that is not there fails here, before any camera.
            _ = try pipeline.setStateThrowingPostedError(.ready)
            _ = try pipeline.setStateThrowingPostedError(.playing)
        } catch {
            _ = try? pipeline.setState(.null)
            throw error
        }
        self.pipeline = pipeline
        self.sink = sink
        guard let bus = pipeline.bus else {
            _ = try? pipeline.setState(.null)
            throw .unavailable("the preview pipeline's bus")
        }
        let (shared, watched) = (shared, pipeline)
        NamedThread.start("camrec-preview") {
            Self.watch(bus, of: watched, shared: shared)
        }
    }

    deinit { close() }

    /// Reads the window pipeline's bus until `close()`: an error means the window is gone
    /// (the user closed it, or the display went away). The pipeline then stops, and the
    /// close handler is called once.
    private static func watch(_ bus: Bus, of pipeline: Pipeline, shared: Shared) {
        while !shared.state.withLock({ $0.stopped }) {
            guard case .error(let failure)? = bus.pop(timeoutNanoseconds: 100_000_000) else { continue }
            let reason = failure.isResourceError(.notFound)
                ? "the preview window was closed"
                : "the preview window failed (\(failure.source.name): \(failure.message))"
            let handler = shared.state.withLock { state -> (@Sendable (String) -> Void)? in
                state.closed = reason
                return state.onClose
            }
            _ = try? pipeline.setState(.null)
            handler?(reason)
            return
        }
    }

    /// Calls `handler` once when the window goes (at once if it is gone already), with a
    /// phrase saying why ("the preview window was closed").
    public func onClose(_ handler: @escaping @Sendable (String) -> Void) {
        let closed = shared.state.withLock { state -> String? in
            if state.closed == nil { state.onClose = handler }
            return state.closed
        }
        if let closed { handler(closed) }
    }

    /// Calls `handler` with each key pressed while the window has the focus ("s", "q", as X11
    /// names them), on the window's event thread: keep it short.
    public func onKey(_ handler: @escaping @Sendable (String) -> Void) {
        let shared = shared
        let token = keyWatch.addProbe(.upstreamEvent) { info in
            if let key = info.event?.navigationKeyPress, let handler = shared.state.withLock({ $0.onKey }) { handler(key) }
            return .pass
        }
        let replaced = shared.state.withLock { state -> ProbeToken? in
            defer { state.keyToken = token }
            state.onKey = handler
            return state.keyToken
        }
        replaced?.remove()
    }

    /// Whether the window is still showing.
    public var isShowing: Bool { shared.state.withLock { $0.closed == nil && !$0.stopped } }

    /// Shows the frames `sink` gets (on its streaming thread, never blocking it), with the
    /// status line `status` returns for each frame. The token stops it.
    public func show(framesOf sink: AppSink, status: @escaping @Sendable () -> PreviewStatus) -> AppSinkCallbacksToken {
        sink.setCallbacks(newSample: { [self] view in
            if let sample = view.pullSample() { show(sample, status: status().text) }
            return .ok
        })
    }

    /// Queues one frame for the window (dropped when the window is gone).
    func show(_ sample: Sample, status text: String) {
        let changed = shared.state.withLock { state -> Bool? in
            guard state.closed == nil, !state.stopped else { return nil }
            defer { state.text = text }
            return state.text != text
        }
        guard let changed else { return }
        // Only one streaming thread shows frames, so the text cannot go back in time.
        if changed { try? overlay.set("text", text) }
        source.push(sample)
    }

    /// Closes the window and stops its pipeline; safe to call more than once.
    public func close() {
        let first = shared.state.withLock { state -> Bool in
            defer { state.stopped = true }
            return !state.stopped
        }
        guard first else { return }
        shared.state.withLock { $0.keyToken }?.remove()
        _ = try? pipeline.setState(.null)
    }

    /// A GStreamer failure in one phrase.
    private static func describe(_ error: any Error) -> String {
        if let error = error as? GStreamerError, case .element(let failure) = error { return failure.message }
        return "\(error)"
    }
}

/// Why no preview window can be shown.
public enum PreviewUnavailable: Error, Sendable, Equatable {
    /// DISPLAY and WAYLAND_DISPLAY are unset.
    case noDisplay
    /// A display is named, but no sink could open a window on it: each sink tried, with its error.
    case cannotOpen(display: String, failures: [String])

    /// Why, in one phrase ("DISPLAY and WAYLAND_DISPLAY are unset").
    public var reason: String {
        switch self {
        case .noDisplay: "DISPLAY and WAYLAND_DISPLAY are unset"
        case .cannotOpen(let display, let failures):
            "no window can be opened on \(display) (\(failures.joined(separator: "; ")))"
        }
    }
}

/// Where a preview window can go, read from the environment once (`DISPLAY`, `WAYLAND_DISPLAY`).
public struct DisplayEnvironment: Sendable, Equatable {
    /// The X11 display (`DISPLAY`), nil when unset or empty.
    public var x11: String?
    /// The Wayland display (`WAYLAND_DISPLAY`), nil when unset or empty.
    public var wayland: String?

    /// The displays named in `environment` (a process's environment).
    public init(environment: [String: String]) {
        x11 = environment["DISPLAY"].flatMap { $0.isEmpty ? nil : $0 }
        wayland = environment["WAYLAND_DISPLAY"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Whether any display is named.
    public var isAvailable: Bool { x11 != nil || wayland != nil }

    /// `DISPLAY=:0`, `WAYLAND_DISPLAY=wayland-0`, both, or "no display".
    public var description: String {
        let named = [x11.map { "DISPLAY=" + $0 }, wayland.map { "WAYLAND_DISPLAY=" + $0 }].compactMap { $0 }
        return named.isEmpty ? "no display" : named.joined(separator: ", ")
    }

    /// The video sinks to try, best first: on X11, the X11 sinks Debian ships (gstreamer1.0-x),
    /// tried by camrec itself, because autovideosink in GStreamer 1.22 also tries kmssink
    /// (seconds lost on a desktop) and crashes the process when the display cannot be opened
    /// (checked). Without X11 (Wayland), autovideosink: waylandsink when it is installed.
    /// `PreviewWindow.open` falls back to autovideosink when none of these is installed.
    public var sinkCandidates: [String] {
        x11 != nil ? ["xvimagesink", "ximagesink"] : ["autovideosink"]
    }
}

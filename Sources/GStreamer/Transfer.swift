/// What wrapping a C pointer does to its reference, following GObject introspection's
/// transfer annotations. Every wrapper owns exactly one reference and drops it in `deinit`.
public enum Transfer: Sendable {
    /// A floating reference (factories, `gst_parse_launch`): sunk, so the wrapper owns it.
    case floating
    /// A full reference handed to us (`get_by_name`, `get_static_pad`, `get_bus`): adopted.
    case full
    /// A borrowed pointer (`transfer none`): the wrapper takes a reference of its own.
    case none
}

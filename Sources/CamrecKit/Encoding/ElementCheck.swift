import GStreamer

/// Questions about GStreamer elements that planning an encoding asks, answered by making
/// the element (never by starting it).
public enum ElementCheck {
    /// Whether GStreamer can make an element of this factory.
    public static func exists(_ factory: String) -> Bool {
        (try? Element.make(factory)) != nil
    }

    /// "x265enc, needed for H.265 encoding, is not installed: install it with: sudo apt-get
    /// install gstreamer1.0-plugins-bad".
    public static func missingMessage(_ factory: String, use: String) -> String {
        "\(factory), needed for \(use), is not installed: \(PluginPackages.hint(for: factory))"
    }

    /// Answers whether an element of `factory` has a property (false when it cannot be made).
    public static func propertyCheck(_ factory: String) -> @Sendable (String) -> Bool {
        { property in (try? Element.make(factory))?.hasProperty(property) ?? false }
    }
}

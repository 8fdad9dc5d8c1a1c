import GStreamer

/// A question about GStreamer elements that planning an encoding asks, answered by making
/// the element (never by starting it).
public enum ElementCheck {
    /// Answers whether an element of `factory` has a property (false when it cannot be made).
    public static func propertyCheck(_ factory: String) -> @Sendable (String) -> Bool {
        { property in (try? Element.make(factory))?.hasProperty(property) ?? false }
    }
}

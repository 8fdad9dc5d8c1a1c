extension StringProtocol {
    /// The text without leading and trailing whitespace (Foundation-free).
    var trimmingSpaces: String {
        // Indices, not reversed copies: one pass from each end.
        guard let first = firstIndex(where: { !$0.isWhitespace }), let last = lastIndex(where: { !$0.isWhitespace })
        else { return "" }
        return String(self[first...last])
    }
}

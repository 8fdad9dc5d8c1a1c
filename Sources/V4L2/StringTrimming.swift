extension StringProtocol {
    /// The text without leading and trailing whitespace (Foundation-free).
    var trimmingSpaces: String {
        String(drop(while: { $0.isWhitespace }).reversed().drop(while: { $0.isWhitespace }).reversed())
    }
}

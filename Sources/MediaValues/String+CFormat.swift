#if canImport(Glibc)
import Glibc
#endif

extension String {
    /// printf-style formatting of numbers (`%d`, `%ld`, `%.3f`, `%02d`…) through the C
    /// library's `vsnprintf`: what camrec used `String(format:)` for, which needs full Foundation
    /// (see `NamedThread`). Arguments are numbers; put strings in with interpolation.
    public init(cFormat format: String, _ arguments: CVarArg...) {
        self = Self.formatted(format, arguments)
    }

    private static func formatted(_ format: String, _ arguments: [CVarArg]) -> String {
        withVaList(arguments) { list in
            var buffer = [CChar](repeating: 0, count: 256)
            // vsnprintf consumes the va_list: format into a fixed buffer large enough for camrec's
            // short messages, and fall back to a larger one (with a fresh list) if not.
            let needed = Int(vsnprintf(&buffer, buffer.count, format, list))
            if needed < buffer.count { return String(decoding: buffer[..<Swift.max(0, needed)].map { UInt8(bitPattern: $0) }, as: UTF8.self) }
            return withVaList(arguments) { again in
                var large = [CChar](repeating: 0, count: needed + 1)
                _ = vsnprintf(&large, large.count, format, again)
                return String(decoding: large[..<needed].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
        }
    }
}

extension StringProtocol {
    /// The text without leading and trailing whitespace and newlines (what
    /// `trimmingCharacters(in: .whitespacesAndNewlines)` gave, without full Foundation).
    package var trimmingWhitespace: String {
        // Indices, not reversed copies: one pass from each end.
        guard let first = firstIndex(where: { !$0.isWhitespace }), let last = lastIndex(where: { !$0.isWhitespace })
        else { return "" }
        return String(self[first...last])
    }
}

extension CommandSpec {
    /// The help `--help [TOPIC]` asks for: ``helpText``, or one topic in full
    /// (``helpText(topic:)``). A command without topics ignores the word after `--help`,
    /// and so does one with topics when the word is a file name (`camrec --help out.mp4`).
    ///
    /// - Throws: ``UsageError`` for a word that is no topic (``unknownTopic(_:)``).
    public func helpText(for topic: String?) throws(UsageError) -> String {
        guard let topic, !groups.isEmpty else { return helpText }
        if let text = helpText(topic: topic) { return text }
        if topic.contains(".") || topic.contains("/") { return helpText }
        throw unknownTopic(topic)
    }

    /// `unknown help topic 'encodng': did you mean 'encoding'? the topics are … (see camrec --help)`, one line.
    public func unknownTopic(_ topic: String) -> UsageError {
        let hint = likelyTopic(topic).map { "did you mean '\($0)'? " } ?? ""
        return UsageError("unknown help topic '\(topic)': \(hint)the topics are \(topicList) (see \(name) --help)")
    }

    /// The topics of the groups, comma-separated: `camera, output, encoding`.
    public var topicList: String {
        groups.map(\.topic).joined(separator: ", ")
    }
}

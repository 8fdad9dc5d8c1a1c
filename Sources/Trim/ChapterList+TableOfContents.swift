import GStreamer

/// Chapters through GStreamer: matroskademux gives a Matroska input's editions as a table
/// of contents (a sticky TOC event on its pads), and matroskamux writes one given through
/// `GstTocSetter` as the output's `Chapters`.
extension ChapterList {
    /// The chapters of one edition of a table of contents (those without a start are left out).
    init(edition: [TableOfContents.Chapter]) {
        self.init(edition.compactMap { chapter in
            guard let start = chapter.start, start <= UInt64(Int64.max) else { return nil }
            let end = chapter.stop.flatMap { $0 > start && $0 <= UInt64(Int64.max) ? Int64($0) : nil }
            return Chapter(start: Int64(start), end: end, title: chapter.title ?? "")
        })
    }

    /// The chapters as one edition of a table of contents (times below 0 count as 0).
    var edition: [TableOfContents.Chapter] {
        chapters.map { chapter in
            TableOfContents.Chapter(
                start: UInt64(max(0, chapter.start)), stop: chapter.end.map { UInt64(max(0, $0)) },
                title: chapter.title.isEmpty ? nil : chapter.title
            )
        }
    }
}

extension TableOfContents {
    /// The chapters a cut from `start` to `end` (presentation times of the source; see
    /// ``ChapterList/cut(start:end:length:)``) keeps, edition by edition; editions left
    /// empty are dropped, and nil means no chapter is kept.
    func cut(start: Int64, end: Int64, length: Int64) -> TableOfContents? {
        let kept = editions.map { ChapterList(edition: $0).cut(start: start, end: end, length: length) }
            .filter { !$0.isEmpty }.map(\.edition)
        return kept.isEmpty ? nil : TableOfContents(editions: kept)
    }
}

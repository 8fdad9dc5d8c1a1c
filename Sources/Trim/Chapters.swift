/// A movie's chapter marks, as a trim keeps them: each chapter that overlaps the cut,
/// moved so that the cut's first instant is 0 and clipped to the cut's length. One model
/// for every reader (MP4's Nero list and QuickTime chapter track, Matroska's editions via
/// GStreamer's table of contents) and every writer, so that every mode and container keeps
/// the same chapters.
struct Chapter: Sendable, Equatable {
    /// Where the chapter starts, in nanoseconds on the movie's presentation timeline.
    var start: Int64
    /// Where it ends (exclusive); nil when the source says only where the next one starts
    /// (Nero lists, QuickTime chapter samples without a known end).
    var end: Int64?
    /// Its title, as the source gives it (may be empty).
    var title: String
}

/// The chapter list of a movie, in presentation order.
struct ChapterList: Sendable, Equatable {
    /// The chapters, sorted by start.
    var chapters: [Chapter]

    /// - Parameter chapters: the chapters in any order; they are sorted by start.
    init(_ chapters: [Chapter]) {
        self.chapters = chapters.sorted { $0.start < $1.start }
    }

    /// Whether there is no chapter.
    var isEmpty: Bool { chapters.isEmpty }

    /// Each chapter's end made explicit: its own end, else the next chapter's start, else
    /// `length` (the movie's length).
    func withEnds(length: Int64) -> ChapterList {
        var closed = chapters
        for index in closed.indices where closed[index].end == nil {
            closed[index].end = index + 1 < closed.count ? closed[index + 1].start : length
        }
        return ChapterList(closed)
    }

    /// The chapters a cut from `start` to `end` (nanoseconds, presentation timeline of the
    /// source; end exclusive) keeps: those that overlap it, shifted so that `start` is 0,
    /// clipped to `0 ..< end - start`. A chapter that began before the cut starts at 0 under
    /// its own title (the viewer is inside it at the first frame). `length` is the source's
    /// length, used for the last chapter's end when the source gives none.
    func cut(start: Int64, end: Int64, length: Int64) -> ChapterList {
        let span = end - start
        guard span > 0 else { return ChapterList([]) }
        var kept: [Chapter] = []
        for chapter in withEnds(length: max(length, end)).chapters {
            let chapterEnd = chapter.end ?? length
            guard chapter.start < end, chapterEnd > start else { continue }
            let newStart = max(0, chapter.start - start)
            let newEnd = min(span, chapterEnd - start)
            guard newEnd > newStart else { continue }
            kept.append(Chapter(start: newStart, end: newEnd, title: chapter.title))
        }
        return ChapterList(kept)
    }
}

import MP4

/// The chapters camrec's MP4 writer keeps (issue 30 item 5): those of the source that
/// overlap the cut, shifted so that the output's first frame is 0 and clipped to its length
/// (``ChapterList/cut(start:end:length:)``), written in each form the source has: its Nero
/// list (`udta/chpl`) rewritten, its QuickTime chapter track made anew, one text sample per
/// kept chapter. A form left without a chapter is left out (the track with its reference).
extension MP4TrimWriter {
    /// The source's chapters in each form, cut to the output.
    struct KeptChapters {
        /// The source's chapters, as read.
        var source = MP4Chapters()
        /// Its Nero list cut to the output (nil when it has none).
        var nero: ChapterList?
        /// Its chapter track's chapters cut to the output (nil when it has none).
        var track: ChapterList?
    }

    /// Reads the source's chapters and cuts them to the output's window.
    func keptChapters() -> KeptChapters {
        let source = MP4Chapters.read(
            movie: input.movie, file: input.file, references: TrackReferences.read(path: input.path)
        )
        guard !source.isEmpty else { return KeptChapters() }
        // The window on the movie timeline: buffer times less the video's edit-list shift.
        let offset = input.index.presentationOffset
        let start = plan.firstPTS - offset
        let end = plan.endPTS - offset
        let videoEnd = (input.index.video.map { $0.pts + $0.duration }.max() ?? end) - offset
        func cut(_ list: ChapterList?) -> ChapterList? {
            guard let list else { return nil }
            let known = list.chapters.compactMap(\.end).max() ?? 0
            return list.cut(start: start, end: end, length: max(videoEnd, known))
        }
        return KeptChapters(source: source, nero: cut(source.nero), track: cut(source.track))
    }

    /// The source's movie metadata with its Nero list replaced by the kept chapters (left
    /// out when none is kept); unchanged when the source has no Nero list.
    func metadata(keeping chapters: KeptChapters) -> MovieMetadata {
        var metadata = input.movie.metadata
        guard let nero = chapters.nero, let userData = metadata.userData,
              let rewritten = MP4Chapters.userData(userData, replacingNeroWith: nero)
        else { return metadata }
        // An empty `udta` (the list was all it held) is left out.
        metadata.userData = rewritten.count > 8 ? rewritten : nil
        return metadata
    }

    /// The QuickTime chapter track `track` holding `kept` (output timeline): one text sample
    /// per chapter in the track's format, lasting to the chapter's end, placed on the movie
    /// timeline by an edit list; nil when no chapter is kept.
    func chapterTrack(_ track: Track, kept: ChapterList) -> OutputTrack? {
        let chapters = kept.chapters.filter { ($0.end ?? $0.start) > $0.start }
        guard let first = chapters.first else { return nil }
        let scale = track.timescale
        func ticks(_ nanoseconds: Int64) -> Int64 { TimedTrackCut.rescale(nanoseconds, 1_000_000_000, scale) }
        var samples: [OutputSample] = []
        var position = ticks(first.start)
        for (index, chapter) in chapters.enumerated() {
            // Each sample runs to the next chapter's start (a gap between chapters stays in
            // the one before), the last to its own end.
            let until = index + 1 < chapters.count ? chapters[index + 1].start : (chapter.end ?? chapter.start)
            let duration = max(1, ticks(until) - position)
            position += duration
            samples.append(OutputSample(
                source: .bytes(MP4Chapters.textSample(chapter.title, format: track.format)),
                duration: UInt32(clamping: duration), compositionOffset: 0, isSync: true
            ))
        }
        let cut = TimedTrackCut.Cut(samples: samples, leadingGap: ticks(first.start))
        return OutputTrack(
            template: track, edits: cut.edits(timescale: scale, movieScale: input.movie.timescale), samples: samples
        )
    }
}

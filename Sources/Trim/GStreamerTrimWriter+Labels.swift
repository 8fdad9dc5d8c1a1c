import GStreamer
import MediaValues

/// What a ``GStreamerTrimWriter`` keeps of the input besides samples: each track's labels
/// (language, name, default and forced flags) and the chapters that overlap the cut.
extension GStreamerTrimWriter {
    /// The labels of the output's tracks in the muxer's order (the video, then each copied
    /// stream), from the demuxer's pads: a Matroska input's own track headers for the
    /// track a pad's stream id names, else what the demuxer tagged the pad with.
    func trackLabels(pads: DemuxerPads, streams: [String]) -> [TrackLabels] {
        let headers = index.container == .matroska ? MatroskaTrackLabels.read(path: input.path) : [:]
        return pads.pads.withLock { pads in
            func labels(_ pad: Pad?) -> TrackLabels {
                if let id = pad?.streamStart?.streamID, let number = TrackLabels.matroskaTrackNumber(streamID: id),
                   let labels = headers[number] {
                    return labels
                }
                return TrackLabels(pad: pad)
            }
            return [labels(pads.video)] + streams.map { name in labels(pads.others.first { $0.pad.name == name }?.pad) }
        }
    }

    /// The input's chapters (the table of contents its demuxer gave: a Matroska input's
    /// editions) that overlap the cut, shifted and clipped to the output's timeline; nil
    /// when none is kept.
    /// An MP4 or MOV input (qtdemux 1.22 gives no TOC) gives its chapter track's or Nero
    /// list's chapters (``MP4Chapters``), as one edition.
    func keptChapters(pads: DemuxerPads) -> TableOfContents? {
        let given = pads.pads.withLock({ $0.video?.tableOfContents })
        let isMP4 = index.container == .mp4 || index.container == .mov
        let mp4Chapters = given == nil && isMP4 ? MP4Chapters.read(path: input.path).list : nil
        guard let contents = given ?? mp4Chapters.flatMap({ $0.isEmpty ? nil : TableOfContents(editions: [$0.edition]) })
        else { return nil }
        let offset = index.presentationOffset
        return contents.cut(start: plan.firstPTS - offset, end: plan.endPTS - offset, length: index.videoEnd)
    }
}

extension GStreamerTrimWriter {
    /// Sets in the written file what its muxer could not: a Matroska output's exact track
    /// labels (``MatroskaTrackLabels``), an MP4 output's chapters (``NeroChapterList``).
    /// Returns warnings for what could not be kept.
    func keepLabelsAndChapters(labels: [TrackLabels], chapters: TableOfContents?) throws -> [String] {
        var warnings: [String] = []
        switch job.outputContainer {
        case .matroska, .webm:
            if !labels.isEmpty, !(try MatroskaTrackLabels.write(labels, to: job.outputPath)) {
                warnings.append(
                    "the tracks' names, default and forced flags are matroskamux's, not the input's: they do not fit"
                        + " in the track headers it wrote"
                )
            }
        case .mp4, .mov:
            // A Nero list holds one edition: the first.
            guard let edition = chapters?.editions.first else { break }
            if !(try NeroChapterList.add(ChapterList(edition: edition), to: job.outputPath)) {
                warnings.append("the chapters are not kept: the written MP4 does not end with its movie box")
            }
        case .avi:
            // Never an output (an AVI input is cut to Matroska).
            break
        }
        return warnings
    }
}

extension StreamCopier {
    /// How much earlier than its first frame a Matroska input is read when subtitles are
    /// copied: after a seek matroskademux delivers blocks from the keyframe's cluster on,
    /// so a cue that started before it (shown across the cut's first frame) would be lost.
    /// Ten seconds covers the cues people read; the frames before are skipped, not decoded.
    static let subtitleLead: Int64 = 10_000_000_000

    /// The lead for `container`'s demuxer: ``subtitleLead`` for Matroska with subtitles, else 0
    /// (qtdemux positions each track on its own sample at the seek target).
    func subtitleLead(container: MediaContainer) -> Int64 {
        container == .matroska && streams.contains { $0.source.kind == .subtitle } ? Self.subtitleLead : 0
    }
}

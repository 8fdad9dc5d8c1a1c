import CamrecCore
import GStreamer
import MP4
import Matroska

/// Writes a Matroska-to-Matroska cut without a demuxer or a muxer for the copied part (see
/// docs/trim.md, "Matroska cuts without GStreamer"): the blocks between the edges are read
/// straight from the input's clusters (where ``MatroskaBlockIndex`` found them) and written
/// by camrec's own ``MatroskaFileWriter`` with only their timecodes moved; the re-encoded
/// head and tail (``FrameEncoder``, fed the frames' bytes from the file) go before and after
/// them. Track headers are the source's own `TrackEntry` elements (an H.264 track's codec
/// data gains the edges' parameter sets), chapters are cut as every other path cuts them.
///
/// Anything it does not handle (no Cues, laced sound, a cluster of unknown size, a codec
/// whose edges it cannot join, encoded blocks) makes it hand the whole cut to
/// ``GStreamerTrimWriter`` before the output is published.
struct MatroskaCopyWriter: TrimWriter {
    let input: GStreamerInput
    let layout: MatroskaFrameBlocks
    let job: TrimJob

    /// Why this writer leaves a cut to GStreamer's path.
    struct Unsupported: Error, Equatable {
        var reason: String
    }

    var plan: TrimPlan { job.plan }
    var index: FrameIndex { input.index }
    private var fallback: GStreamerTrimWriter { GStreamerTrimWriter(input: input, job: job) }

    /// Whether the cut is one this writer takes on at all: a Matroska output in accurate or
    /// keyframe mode, with edges (if any) in a codec whose frames it can join.
    static func takes(_ job: TrimJob, index: FrameIndex) -> Bool {
        guard job.outputContainer == .matroska, job.plan.mode != .reencode else { return false }
        guard job.plan.encodes else { return true }
        guard job.encoding?.codec == job.codec else { return false }
        switch job.codec.edgeEncoder {
        case .x264: return index.codecData.flatMap(H264Bitstream.lengthSize(avcC:)) != nil
        case .vp8, .vp9: return true
        default: return false
        }
    }

    func write() throws -> WrittenMovie {
        do {
            return try copy()
        } catch is Unsupported {
            return try fallback.write()
        }
    }

    func countWrittenFrames() throws -> Int { try fallback.countWrittenFrames() }

    // MARK: The copy

    private func copy() throws -> WrittenMovie {
        guard let source = MatroskaSource(path: input.path, videoTrack: layout.videoTrack), !source.cues.isEmpty else {
            throw Unsupported(reason: "no Cues")
        }
        guard layout.blocks.count == index.video.count else { throw Unsupported(reason: "index mismatch") }
        let timeline = OutputTimeline(plan: plan, index: index, minimumDecodeStep: 1_000_000)
        var (kept, written) = keptTracks(source)
        guard let videoEntry = kept.first(where: { $0.number == layout.videoTrack }), !videoEntry.isEncoded else {
            throw Unsupported(reason: "encoded video blocks")
        }
        let file = try MatroskaFileWriter(path: job.outputPath)
        try file.begin()
        var edges = try MatroskaEdges(writer: self, timeline: timeline)
        let scale = source.timestampScale
        try file.appendTopLevel(
            EBML.ID.info,
            element: MatroskaFileWriter.info(
                timestampScale: scale, duration: Double(timeline.end) / Double(scale), title: source.title,
                // The output's own date: the source's is its time 0's (camrec's first frame's);
                // the output's time 0 is its first frame, that far into the source.
                dateUTC: source.dateUTC.map { $0 + max(0, plan.firstPTS - index.presentationOffset) }
            )
        )
        if let codecPrivate = try edges.finish(), let position = kept.firstIndex(where: { $0.number == layout.videoTrack }) {
            kept[position].entry = try Self.replacingCodecPrivate(codecPrivate, in: videoEntry.entry)
        }
        try file.appendTopLevel(EBML.ID.tracks, element: EBML.element(EBML.ID.tracks, kept.flatMap(\.entry)))
        let offset = index.presentationOffset
        let chapters = source.chapters(start: plan.firstPTS - offset, end: plan.endPTS - offset, length: index.videoEnd)
        if !chapters.isEmpty {
            try file.appendTopLevel(EBML.ID.chapters, element: MatroskaFileWriter.chapters(chapters))
        }
        if let attachments = source.attachments { try file.appendTopLevel(EBML.ID.attachments, element: attachments) }
        var walk = MatroskaBlockWalk(
            writer: self, source: source, kept: kept, timeline: timeline, edges: edges.frames, file: file
        )
        try walk.run()
        try file.appendCues(walk.cues, track: layout.videoTrack)
        if let tags = MatroskaTrackTags.tagsElement(path: input.path).flatMap({ MatroskaTrackTags.blankingTrackTags($0.bytes) }) {
            try file.appendTopLevel(EBML.ID.tags, element: tags)
        }
        try file.finish()
        guard walk.videoFrames == plan.frameCount else {
            throw CamrecError.failed("wrote \(walk.videoFrames) video frames instead of \(plan.frameCount)")
        }
        written.tracks = kept.map { track in
            let samples = track.number == layout.videoTrack ? walk.videoFrames : walk.packets[track.number, default: 0]
            return TrimTrack(kind: Self.kind(track.type), codec: codec(of: track, in: kept), samples: samples)
        }
        return written
    }

    /// The tracks kept (the first video track, every sound and subtitle track), in the
    /// source's order, and a note for each one dropped.
    private func keptTracks(_ source: MatroskaSource) -> ([MatroskaSource.Track], WrittenMovie) {
        var kept: [MatroskaSource.Track] = []
        var notes = WrittenMovie()
        for track in source.tracks {
            if track.number == layout.videoTrack || track.type == 2 || track.type == 0x11 {
                kept.append(track)
            } else {
                let reason = track.type == 1 ? "trim cuts one video track (the first)" : "trim keeps no such track"
                notes.drop("track \(track.number)", kind: Self.kind(track.type), codec: track.codecID, because: reason)
            }
        }
        return (kept, notes)
    }

    static func kind(_ type: UInt64) -> TrimTrack.Kind {
        switch type {
        case 1: .video
        case 2: .audio
        case 0x11: .subtitle
        default: .data
        }
    }

    /// A track's media type as the demuxer names it (the n-th stream of its kind), else its codec ID.
    private func codec(of track: MatroskaSource.Track, in kept: [MatroskaSource.Track]) -> String {
        if track.number == layout.videoTrack { return job.outputCodec.mediaType }
        let kind = Self.kind(track.type)
        let rank = kept.filter { Self.kind($0.type) == kind }.firstIndex { $0.number == track.number } ?? 0
        let streams = index.streams.filter { $0.kind == kind }
        return rank < streams.count ? streams[rank].mediaType : track.codecID
    }

    /// `entry` (a whole `TrackEntry`) with its `CodecPrivate` replaced.
    static func replacingCodecPrivate(_ codecPrivate: [UInt8], in entry: [UInt8]) throws -> [UInt8] {
        guard let top = EBML.element(in: entry[...], at: 0),
              let fields = EBML.children(of: entry, in: Int(top.body)..<entry.count)
        else { throw Unsupported(reason: "an unreadable track header") }
        var body: [UInt8] = []
        for field in fields where field.id != EBML.ID.codecPrivate { body += entry[field.range] }
        body += EBML.element(EBML.ID.codecPrivate, codecPrivate)
        return EBML.element(EBML.ID.trackEntry, body)
    }
}

/// Where a Matroska input's video frames lie, for ``MatroskaCopyWriter``: the video track's
/// number and each indexed frame's block (in the index's order).
struct MatroskaFrameBlocks {
    var videoTrack: UInt64
    var blocks: [MatroskaBlockIndex.Block]
}

extension GStreamerInput {
    /// The writer for `job`: camrec's own Matroska copy when the input was indexed from its
    /// blocks and the cut is one it takes, else GStreamer's path.
    func writer(for job: TrimJob) -> any TrimWriter {
        if let matroska, MatroskaCopyWriter.takes(job, index: index) {
            return MatroskaCopyWriter(input: self, layout: matroska, job: job)
        }
        return GStreamerTrimWriter(input: self, job: job)
    }
}

import MP4

/// Every track of the input in the output, in the input's order: the cut video, each sound
/// track cut at the same instant, subtitles, chapters and timed metadata shortened to the
/// output's window, a QuickTime timecode rewritten to the output's first frame; the track
/// references between them kept. A track that cannot be kept is named, with the reason.
extension MP4TrimWriter {
    /// The output's tracks and what was written.
    struct TrackList {
        var movie = WrittenMovie()
        /// The input track id of each output track, in order.
        var keptInputIDs: [UInt32] = []
    }

    /// The kind of an MP4/MOV track, by its handler.
    static func kind(of track: Track) -> TrimTrack.Kind {
        switch track.handler {
        case "vide": .video
        case "soun": .audio
        case "tmcd": .timecode
        case "text", "sbtl", "subt", "clcp": .subtitle
        default: .data
        }
    }

    /// The tracks to write, the list of what they are, and where the cut video is among them.
    func outputTracks(
        video: OutputTrack, chapters: KeptChapters = KeptChapters()
    ) throws -> (tracks: [OutputTrack], list: TrackList, videoPosition: Int) {
        var tracks: [OutputTrack] = []
        var list = TrackList()
        var videoPosition = 0
        for (position, track) in input.movie.tracks.enumerated() {
            let kind = Self.kind(of: track)
            let number = position + 1
            let kept: OutputTrack
            if track.id == input.video.id {
                videoPosition = tracks.count
                kept = video
            } else if track.id == chapters.source.trackID {
                // The QuickTime chapter track: made anew from the kept chapters.
                guard let output = chapters.track.flatMap({ chapterTrack(track, kept: $0) }) else {
                    list.movie.drop("track \(number)", kind: kind, codec: track.format, because: "no chapter of it overlaps the cut")
                    continue
                }
                kept = output
            } else {
                switch try cut(track, kind: kind, offset: input.trackOffsets[position]) {
                case .success(let output): kept = output
                case .failure(let reason):
                    list.movie.drop("track \(number)", kind: kind, codec: track.format, because: reason.text)
                    continue
                }
            }
            tracks.append(kept)
            list.keptInputIDs.append(track.id)
            list.movie.tracks.append(TrimTrack(kind: kind, codec: track.format, samples: kept.samples.count))
        }
        return (tracks, list, videoPosition)
    }

    /// Why a track is not kept.
    struct NotKept: Error {
        let text: String
    }

    /// One track other than the cut video, cut to the output's window.
    private func cut(_ track: Track, kind: TrimTrack.Kind, offset: Int64?) throws -> Result<OutputTrack, NotKept> {
        let window = "\(seconds(plan.firstPTS)) s to \(seconds(plan.endPTS)) s"
        guard !track.samples.isEmpty else { return .failure(NotKept(text: "it has no samples")) }
        switch kind {
        case .video:
            return .failure(NotKept(text: "trim cuts one video track (the first)"))
        case .audio:
            guard let offset else { return .failure(NotKept(text: "its edit list does more than shift it")) }
            guard let output = audioTrack(track, offset: offset) else {
                return .failure(NotKept(text: "it has no sound from \(window) of the video"))
            }
            return .success(output)
        case .timecode, .subtitle, .data:
            guard track.handler != "hint" else {
                return .failure(NotKept(text: "a hint track describes packets of the uncut movie"))
            }
            guard let offset else { return .failure(NotKept(text: "its edit list does more than shift it")) }
            // The output's window on the track's media timeline, in its ticks.
            let start = TimedTrackCut.rescale(plan.firstPTS - input.index.presentationOffset + offset, 1_000_000_000, track.timescale)
            let end = TimedTrackCut.rescale(plan.endPTS - input.index.presentationOffset + offset, 1_000_000_000, track.timescale)
            let items = track.samples.map(TimedTrackCut.Item.init)
            var cut: TimedTrackCut.Cut?
            if kind == .timecode {
                cut = try TimedTrackCut.timecode(
                    items, sampleEntry: track.sampleEntry, timescale: track.timescale, from: start, to: end
                ) { sample in
                    try input.file.read(offset: sample.offset, count: 4).reduce(0) { $0 << 8 | UInt32($1) }
                }
            }
            cut = cut ?? TimedTrackCut.cut(items, from: start, to: end)
                ?? TimedTrackCut.emptyText(format: track.format, from: start, to: end)
            guard let cut else { return .failure(NotKept(text: "it has nothing from \(window) of the video")) }
            return .success(OutputTrack(
                template: track, edits: cut.edits(timescale: track.timescale, movieScale: input.movie.timescale),
                samples: cut.samples
            ))
        }
    }

    /// The input's track references, mapped to the output's track ids, added to the written movie box.
    func addTrackReferences(keeping inputIDs: [UInt32]) throws {
        let references = TrackReferences.read(path: input.path)
        guard !references.isEmpty else { return }
        var outputID: [UInt32: UInt32] = [:]
        for (position, id) in inputIDs.enumerated() { outputID[id] = UInt32(position + 1) }
        var boxes: [Int: [UInt8]] = [:]
        for (position, id) in inputIDs.enumerated() {
            if let list = references[id], let box = TrackReferences.box(list, outputID: outputID) { boxes[position] = box }
        }
        try TrackReferences.insert(boxes, into: job.outputPath)
    }

    /// A buffer time of the video as seconds on the input's presentation timeline ("1.3").
    private func seconds(_ bufferTime: Int64) -> String {
        let value = Trimmer.seconds(bufferTime - input.index.presentationOffset)
        return value == value.rounded() ? String(Int(value)) : String(value)
    }
}

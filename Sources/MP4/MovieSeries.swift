/// Movies that follow each other (a recording's segments) read as one movie: the video
/// and sound tracks of each, in order, on one timeline that runs on from each movie's end
/// to the next one's start, with every sample's place in their files read as one
/// (``SampleFile/init(concatenating:)``). What a cut across the movies' boundaries starts
/// from: the samples are not touched, only their tables are joined.
///
/// Only movies with the same tracks join: the same video and sound tracks in the same
/// order, with the same timescales and byte-identical sample descriptions (the same codec,
/// size and parameter sets); ``difference(_:_:)`` says why two do not.
public enum MovieSeries {
    /// Why `next` cannot follow `first` in one movie (nil when it can): in people's words,
    /// e.g. "the video's sample description differs (another size or parameter sets)".
    public static func difference(_ first: Movie, _ next: Movie) -> String? {
        let (a, b) = (joinedTracks(first), joinedTracks(next))
        guard a.map(\.handler) == b.map(\.handler) else {
            return "it has other tracks (\(describe(b)) instead of \(describe(a)))"
        }
        for (left, right) in zip(a, b) {
            let what = left.isVideo ? "the video" : "the sound"
            guard left.format == right.format else { return "\(what) is \(right.format) instead of \(left.format)" }
            guard left.timescale == right.timescale else { return "\(what)'s timescale differs" }
            guard essentials(left) == essentials(right) else {
                return left.isVideo
                    ? "the video's sample description differs (another size, frame rate or parameter sets)"
                    : "the sound's sample description differs (another rate or channel count)"
            }
        }
        return nil
    }

    /// `movies` (at least one, each with a video track, none differing from the first: see
    /// ``difference(_:_:)``) joined into one, their samples' offsets moved to where they are
    /// in `file`, the movies' files read as one in the same order. Movie `k` starts where
    /// the video of movie `k - 1` ends; each track keeps its place against the video within
    /// its movie. Sound packets that would overlap the previous movie's by more than half a
    /// packet are left out, and a packet followed by a hole lasts until the next one, so the
    /// sound stays in step with the video at every boundary (within half a packet).
    ///
    /// - Throws: ``MP4Error`` for movies that do not join, or samples outside their file.
    public static func join(_ movies: [Movie], file: SampleFile) throws(MP4Error) -> Movie {
        try joining(movies, file: file).movie
    }

    /// ``join(_:file:)``'s movie, with where each movie begins on its timeline and how long
    /// its video lasts (nanoseconds from the first frame).
    public static func joining(
        _ movies: [Movie], file: SampleFile
    ) throws(MP4Error) -> (movie: Movie, starts: [Int64], length: Int64) {
        guard let first = movies.first else { throw MP4Error("no movie to join") }
        guard file.parts.count == movies.count else { throw MP4Error("the movies and their files do not match") }
        for next in movies.dropFirst() {
            if let reason = difference(first, next) { throw MP4Error("the movies do not join: \(reason)") }
        }
        let template = joinedTracks(first)
        guard let videoPosition = template.firstIndex(where: \.isVideo) else { throw MP4Error("the first movie has no video") }
        var joined = template.map { track in
            var empty = track
            empty.samples = []
            return empty
        }
        // Where each movie starts on the joined timeline, in the video's ticks.
        var startTicks: Int64 = 0
        var starts: [Int64] = []
        let videoScale = template[videoPosition].timescale
        for (position, movie) in movies.enumerated() {
            let tracks = joinedTracks(movie)
            let base = file.base(ofPart: position)
            let partSize = file.parts[position].size
            let video = tracks[videoPosition]
            guard let videoStart = video.samples.map(\.presentationTime).min() else {
                throw MP4Error("movie \(position + 1) has no video frames")
            }
            let videoStartTime = nanoseconds(videoStart - (mediaOffset(video, movieTimescale: movie.timescale) ?? 0), videoScale)
            let start = nanoseconds(startTicks, videoScale)
            starts.append(start)
            for (index, track) in tracks.enumerated() {
                guard let offset = mediaOffset(track, movieTimescale: movie.timescale),
                      let firstOffset = mediaOffset(template[index], movieTimescale: first.timescale)
                else { throw MP4Error("track \(track.id) of movie \(position + 1) has an edit list that does more than shift it") }
                // Media time on the joined track = media time in this movie + shift (exact
                // for the video: its ticks).
                let shift = index == videoPosition
                    ? startTicks - videoStart + firstOffset
                    : ticks(start - videoStartTime, track.timescale) - offset + firstOffset
                for sample in track.samples {
                    guard sample.offset <= partSize, UInt64(sample.size) <= partSize - sample.offset else {
                        throw MP4Error("track \(track.id) of movie \(position + 1) has samples past the end of its file")
                    }
                    var moved = sample
                    moved.offset += base
                    moved.decodeTime += shift
                    try append(moved, to: &joined[index].samples, isSound: track.isAudio)
                }
            }
            let videoEnd = video.samples.map { $0.presentationTime + Int64($0.duration) }.max() ?? videoStart
            startTicks += videoEnd - videoStart
        }
        // The joined tracks' edit lists: the first movie's shift, over the whole length.
        let length = UInt64(ticks(nanoseconds(startTicks, videoScale), first.timescale))
        for index in joined.indices {
            guard let edits = joined[index].edits, let last = edits.last, !last.isEmpty else { continue }
            let gaps = edits.dropLast().reduce(UInt64(0)) { $0 + $1.segmentDuration }
            joined[index].edits = Array(edits.dropLast()) + [
                Edit(segmentDuration: length > gaps ? length - gaps : 0, mediaTime: last.mediaTime, rate: last.rate)
            ]
        }
        let movie = Movie(fileType: first.fileType, timescale: first.timescale, tracks: joined, metadata: first.metadata)
        return (movie, starts, nanoseconds(startTicks, videoScale))
    }

    /// Appends `sample` to a joined track, keeping its decoding times contiguous (each
    /// sample decoded when the one before it ends, as the sample tables say). Video: the
    /// previous sample lasts until this one. Sound: a packet that would begin more than half
    /// a packet before the previous one ends is left out; otherwise the previous packet lasts
    /// until this one begins.
    private static func append(_ sample: Sample, to samples: inout [Sample], isSound: Bool) throws(MP4Error) {
        guard let previous = samples.last else {
            samples.append(sample)
            return
        }
        let gap = sample.decodeTime - previous.decodeTime
        if isSound, sample.decodeTime < previous.decodeTime + Int64(previous.duration) - Int64(previous.duration) / 2 {
            return
        }
        guard gap > 0, gap <= Int64(UInt32.max) else {
            if isSound { return }
            throw MP4Error("the movies' video does not follow on (a frame decoded \(gap) ticks after the one before)")
        }
        samples[samples.count - 1].duration = UInt32(gap)
        samples.append(sample)
    }

    /// What of a track's sample description must be the same for its samples to follow
    /// another movie's: all of it but the bit rates an encoder measured for each file
    /// (`btrt` boxes, and the buffer size and bit rates of an `esds`), which differ from
    /// segment to segment of one recording.
    static func essentials(_ track: Track) -> [UInt8] {
        let entry = track.sampleEntry
        // A visual sample entry's fixed fields end 86 bytes in, a sound one's 36 (version 0).
        let fieldsEnd = track.isVideo ? SampleEntry.visualFieldsEnd : 36
        guard entry.count >= fieldsEnd, let children = Box.children(of: entry, in: fieldsEnd..<entry.count) else {
            return entry
        }
        var result = Array(entry[8..<fieldsEnd])
        for child in children where child.type != "btrt" {
            var bytes = Array(entry[child.start..<child.end])
            if child.type == "esds" { blankBitRates(inElementaryStreamBox: &bytes) }
            result += bytes
        }
        return result
    }

    /// Zeroes the buffer size and bit rates of the decoder configuration descriptor in an
    /// `esds` box (whole, with its header): ES_Descriptor (tag 3), then DecoderConfigDescriptor
    /// (tag 4): object type, stream type, bufferSizeDB (3 bytes), maxBitrate, avgBitrate.
    private static func blankBitRates(inElementaryStreamBox bytes: inout [UInt8]) {
        var index = 12
        func descriptor(_ tag: UInt8) -> Int? {
            guard index < bytes.count, bytes[index] == tag else { return nil }
            index += 1
            for _ in 0..<4 {
                guard index < bytes.count else { return nil }
                let byte = bytes[index]
                index += 1
                if byte & 0x80 == 0 { return index }
            }
            return index
        }
        guard descriptor(3) != nil, index + 3 <= bytes.count else { return }
        let flags = bytes[index + 2]
        index += 3
        if flags & 0x80 != 0 { index += 2 }
        if flags & 0x40 != 0, index < bytes.count { index += 1 + Int(bytes[index]) }
        if flags & 0x20 != 0 { index += 2 }
        guard descriptor(4) != nil, index + 13 <= bytes.count else { return }
        for offset in (index + 2)..<(index + 13) { bytes[offset] = 0 }
    }

    /// The tracks that are joined: video and sound.
    private static func joinedTracks(_ movie: Movie) -> [Track] {
        movie.tracks.filter { $0.isVideo || $0.isAudio }
    }

    private static func describe(_ tracks: [Track]) -> String {
        tracks.isEmpty ? "none" : tracks.map { $0.isVideo ? "video" : "sound" }.joined(separator: ", ")
    }

    /// The track's media time at its presentation's start (media ticks): what its edit
    /// list skips, minus the empty edits before it; nil for an edit list that does more.
    static func mediaOffset(_ track: Track, movieTimescale: UInt32) -> Int64? {
        guard let edits = track.edits, !edits.isEmpty else { return 0 }
        let gaps = edits.prefix { $0.isEmpty }
        let rest = edits.dropFirst(gaps.count)
        guard let segment = rest.first, rest.count == 1, segment.rate == 1, segment.mediaTime >= 0 else { return nil }
        let gap = gaps.reduce(Int64(0)) { $0 + Int64($1.segmentDuration) }
        return segment.mediaTime - ticks(nanoseconds(gap, movieTimescale), track.timescale)
    }

    private static func nanoseconds(_ ticks: Int64, _ timescale: UInt32) -> Int64 {
        TimeScale.nanoseconds(ticks, timescale)
    }

    /// `nanoseconds` in `timescale` ticks, rounded to the nearest.
    private static func ticks(_ nanoseconds: Int64, _ timescale: UInt32) -> Int64 {
        let scale = Int64(timescale)
        let whole = nanoseconds / 1_000_000_000 * scale
        let rest = nanoseconds % 1_000_000_000 * scale
        return whole + (rest >= 0 ? (rest + 500_000_000) / 1_000_000_000 : (rest - 500_000_000) / 1_000_000_000)
    }
}

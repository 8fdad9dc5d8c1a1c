import GStreamer
import MP4
import MediaValues

/// An MP4/MOV input read from its sample tables instead of demuxed: the frame index costs
/// a read of the movie box (and of each keyframe's first bytes), and the body of a cut can
/// be copied byte for byte without passing each frame through GStreamer.
///
/// Only plain movies qualify: not fragmented, one sample description per track, and edit
/// lists of the video and sound tracks that just shift the timeline (gaps, then one segment
/// at normal rate). Anything else goes through the demuxer (``GStreamerInput``). Any video
/// codec qualifies (its sample description is copied); every track of the movie is there
/// for the writer to keep (``movie``, ``trackOffsets``).
///
/// Its sample access is random: every sample's place in the file (``video``, the movie's
/// tracks), which ``MP4TrimWriter`` copies in the kernel, and the bytes of any video frame
/// (``videoSample(at:)``), which it feeds to the re-encoders.
struct MP4Input: TrimInput {
    let path: String
    let movie: Movie
    let video: Track
    /// The index the planner works on (nanoseconds, as the demuxer would give them).
    let index: FrameIndex
    /// The file the samples are read from.
    let file: SampleFile
    /// NAL length size of H.264 samples (from `avcC`).
    let lengthSize: Int?
    /// The `avcC` record of an H.264 track.
    let avcC: [UInt8]?
    /// Each track's media time minus presentation time in nanoseconds (its edit list), in
    /// the movie's order; nil for an edit list that does more than shift the track.
    let trackOffsets: [Int64?]

    /// Reads `path`; nil when it is not a movie this reader handles (the caller demuxes it
    /// instead). The caps of a video codec other than H.264 come from the demuxer (it reads
    /// the headers and the first frame), as a re-encoder's decoder needs them.
    static func open(path: String, container: MediaContainer, control: TrimControl = TrimControl()) -> MP4Input? {
        guard container != .matroska, let movie = try? Movie.read(path: path), let file = try? SampleFile(path: path) else {
            return nil
        }
        return make(path: path, movie: movie, file: file, container: container, control: control)
    }

    /// The input for `movie`, whose samples are in `file`; `path` names it (and is read for
    /// the caps of a video codec other than H.264).
    static func make(path: String, movie: Movie, file: SampleFile, container: MediaContainer, control: TrimControl) -> MP4Input? {
        guard let video = movie.tracks.first(where: \.isVideo), !video.samples.isEmpty else { return nil }
        let audio = movie.tracks.first(where: \.isAudio).flatMap { $0.samples.isEmpty ? nil : $0 }
        let trackOffsets = movie.tracks.map { presentationOffset($0, movieTimescale: movie.timescale) }
        guard let videoOffset = presentationOffset(video, movieTimescale: movie.timescale) else { return nil }
        // Sound whose edit list does more than shift it is left to the demuxer.
        guard !zip(movie.tracks, trackOffsets).contains(where: { $0.isAudio && $1 == nil }) else { return nil }
        let audioOffset = audio.flatMap { presentationOffset($0, movieTimescale: movie.timescale) } ?? 0
        var mediaType: String
        var avcC: [UInt8]?
        var probedCaps: Caps?
        if video.format == "avc1" {
            mediaType = "video/x-h264"
            avcC = SampleEntry.child("avcC", of: video.sampleEntry)
            guard avcC.flatMap(H264ParameterSets.init(avcC:)).map({ !$0.sequenceSets.isEmpty }) == true else { return nil }
        } else {
            guard let caps = try? GStreamerInput.probeVideoCaps(path: path, container: container, control: control),
                  let type = caps.mediaType
            else { return nil }
            mediaType = type
            probedCaps = caps
        }
        let lengthSize = avcC.flatMap(H264Bitstream.lengthSize)
        guard let frames = try? videoFrames(video, in: file, lengthSize: lengthSize) else { return nil }
        let packets = (audio?.samples ?? []).map { sample in
            let scale = audio?.timescale ?? 1
            let pts = nanoseconds(sample.presentationTime, scale)
            return AudioPacket(pts: pts, duration: nanoseconds(sample.presentationTime + Int64(sample.duration), scale) - pts)
        }
        var caps = probedCaps?.description ?? "\(mediaType)"
        if let avcC {
            let chroma = H264ParameterSets(avcC: avcC)?.sequenceSets.first.map(AVCSamples.chromaFormat) ?? "4:2:0"
            let hex = avcC.map { String($0, radix: 16).leftPadded(to: 2) }.joined()
            caps += ", stream-format=(string)avc, alignment=(string)au, codec_data=(buffer)\(hex), chroma-format=(string)\(chroma)"
        }
        let index = FrameIndex(
            container: container, video: frames, videoCaps: caps, videoMediaType: mediaType,
            codecData: avcC ?? probedCaps?.bytes("codec_data"),
            audio: packets, audioMediaType: audio.map { "audio/\($0.format)" }, audioCaps: nil,
            audioPresentationOffset: audioOffset, presentationOffset: videoOffset
        )
        return MP4Input(
            path: path, movie: movie, video: video, index: index, file: file, lengthSize: lengthSize,
            avcC: avcC, trackOffsets: trackOffsets
        )
    }

    func writer(for job: TrimJob) -> any TrimWriter {
        MP4TrimWriter(input: self, job: job)
    }

    /// The bytes of video frame `index` (decode order), as stored (length-prefixed for H.264).
    func videoSample(at index: Int) throws(MP4Error) -> [UInt8] {
        let sample = video.samples[index]
        return try file.read(offset: sample.offset, count: Int(sample.size))
    }

    /// The video frames (decode order) in the track's own ticks, as its sample tables hold
    /// them: the times an output's sample tables are laid out in without rounding.
    var framesInTrackTicks: [VideoFrame] {
        zip(video.samples, index.video).map { sample, frame in
            VideoFrame(
                pts: sample.presentationTime, dts: sample.decodeTime, duration: Int64(sample.duration),
                isKeyframe: frame.isKeyframe, isIDR: frame.isIDR
            )
        }
    }

    /// Nanoseconds of `ticks` at `timescale`.
    static func nanoseconds(_ ticks: Int64, _ timescale: UInt32) -> Int64 {
        TimeScale.nanoseconds(ticks, timescale)
    }

    /// Media time minus presentation time, in nanoseconds, under the track's edit list; nil
    /// for an edit list that does more than shift the timeline.
    private static func presentationOffset(_ track: Track, movieTimescale: UInt32) -> Int64? {
        guard let edits = track.edits, !edits.isEmpty else { return 0 }
        let gaps = edits.prefix { $0.isEmpty }
        let rest = edits.dropFirst(gaps.count)
        guard let segment = rest.first, rest.count == 1, segment.rate == 1, segment.mediaTime >= 0 else { return nil }
        // The segment must run to the end of the media (a shorter one cuts frames off).
        let mediaEnd = track.samples.map { $0.presentationTime + Int64($0.duration) }.max() ?? 0
        let segmentEnd = segment.mediaTime + Int64(segment.segmentDuration) * Int64(track.timescale) / Int64(movieTimescale)
        let longest = Int64(track.samples.map(\.duration).max() ?? 0)
        guard segment.segmentDuration == 0 || segmentEnd + longest >= mediaEnd else { return nil }
        let gap = gaps.reduce(Int64(0)) { $0 + Int64($1.segmentDuration) }
        return nanoseconds(segment.mediaTime, track.timescale) - nanoseconds(gap, movieTimescale)
    }

    private static func videoFrames(_ track: Track, in file: SampleFile, lengthSize: Int?) throws -> [VideoFrame] {
        var frames = try track.samples.map { sample in
            var isIDR = sample.isSync
            if sample.isSync, let lengthSize { isIDR = try firstSliceIsIDR(sample, in: file, lengthSize: lengthSize) }
            // Times converted as the demuxer does: each instant on its own, so that a frame's
            // end (pts + duration) is the converted end, not a sum of two roundings.
            let pts = nanoseconds(sample.presentationTime, track.timescale)
            return VideoFrame(
                pts: pts, dts: nanoseconds(sample.decodeTime, track.timescale),
                duration: nanoseconds(sample.presentationTime + Int64(sample.duration), track.timescale) - pts,
                isKeyframe: sample.isSync, isIDR: isIDR
            )
        }
        // Negative composition offsets (ctts version 1, ffmpeg's +negative_cts_offsets) put
        // B-frames' decoding after their presentation; decoders (and the demuxer, which
        // shifts them the same way) take decoding times no later than presentation times.
        let late = frames.map { $0.dts - $0.pts }.max() ?? 0
        if late > 0 {
            for index in frames.indices { frames[index].dts -= late }
        }
        return frames
    }
}

extension MP4Input {
    /// Whether a sync sample's first slice is an IDR slice, reading only the NAL unit
    /// headers up to it (a few small reads instead of the whole frame).
    static func firstSliceIsIDR(_ sample: MP4.Sample, in file: SampleFile, lengthSize: Int) throws -> Bool {
        try H264Bitstream.isIDR(size: Int(sample.size), lengthSize: lengthSize) { offset, count in
            offset + count <= Int(sample.size) ? try file.read(offset: sample.offset + UInt64(offset), count: count) : nil
        }
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}

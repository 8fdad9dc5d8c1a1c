import CamrecCore
import GStreamer
import MP4
import MediaValues
#if canImport(Glibc)
import Glibc
#endif

extension Trimmer {
    /// A time-lapse of `series`' range: one frame for every `step` nanoseconds of capture
    /// time (``TimelapseSelection``: the frame captured at each instant, or the nearest
    /// keyframe when the step is at least a keyframe interval, decoding only keyframes),
    /// re-encoded to H.264 and played at the series' own frame rate, without sound.
    /// Written beside the output, checked, stamped with its first frame's capture time and
    /// renamed into place. Blocks the calling thread.
    public static func runTimelapse(
        _ series: SeriesTrimRequest, step: Int64, control: TrimControl = TrimControl()
    ) throws(CamrecError) -> SeriesTrimResult {
        guard let first = series.movies.first else { throw .invalidInput("no movie holds frames of that range") }
        let name = PathName.last(first.path)
        let joined = try JoinedSeries.open(series, name: name, control: control)
        let input = joined.input
        let index = input.index
        guard input.avcC != nil else {
            throw .invalidInput("\(name) is not H.264: camrec export makes time-lapses of H.264 series")
        }
        let request = TrimRequest(input: joined.paths[0], start: TimeSpec(nanoseconds: 0), destination: .path(series.output),
                                  force: series.force)
        let output = try TrimOutput.prepare(for: request, inputContainer: joined.container)
        guard output.container == .mp4 || output.container == .mov else {
            throw CamrecError(.usage, "camrec export writes MP4 or MOV (as its input): end -o with .mp4 or .mov")
        }
        let base = index.presentationOffset + joined.firstFrame
        let selection = TimelapseSelection.make(
            pts: index.video.map { $0.pts - base }, isKeyframe: index.video.map(\.isKeyframe),
            from: joined.position(of: series.from), to: joined.position(of: series.to), step: step
        )
        guard let firstKept = selection.kept.first else {
            throw .invalidInput("no frame of \(name) was captured in that range")
        }
        control.track(temporaryPath: output.temporaryPath)
        try output.checkWritable()
        let spill = output.temporaryPath + ".frames"
        defer { _ = unlink(spill) }
        do {
            let (encoded, configuration) = try encode(selection, of: input, spill: spill, control: control)
            guard encoded.count == selection.kept.count else {
                throw CamrecError.failed("the encoder made \(encoded.count) frames of \(selection.kept.count)")
            }
            let frameTicks = typicalDuration(input.video)
            try write(encoded, configuration: configuration, frameTicks: frameTicks, from: input, spill: spill,
                      to: output.temporaryPath)
            let written = try MP4.Movie.read(path: output.temporaryPath).tracks.first(where: \.isVideo)?.samples.count ?? 0
            guard written == selection.kept.count else {
                throw CamrecError.failed("the time-lapse has \(written) frames instead of \(selection.kept.count)")
            }
            let (firstMilliseconds, source) = joined.captureTime(at: index.video[firstKept].pts - base)
            try? JoinedSeries.stamp(of: joined.paths[source], movieStart: series.movies[source].startMilliseconds,
                                    first: firstMilliseconds).write(into: output.temporaryPath)
            try control.checkCancelled()
            try output.commit(keepingModeOf: nil, control: control)
            let frameSeconds = Double(frameTicks) / Double(input.video.timescale)
            let count = selection.kept.count
            let result = TrimResult(
                mode: .reencode, requestedMode: .reencode, fallbackReason: nil, output: output.finalPath,
                bytes: OutputFile.size(of: output.finalPath), firstFrameTime: 0,
                lastFrameTime: seconds(Int64(Double(count - 1) * frameSeconds * 1e9)),
                duration: seconds(Int64(Double(count) * frameSeconds * 1e9)), frames: count, framesCopied: 0,
                framesReencoded: count, audioPackets: 0, tracks: [TrimTrack(kind: .video, codec: "avc1", samples: count)]
            )
            return SeriesTrimResult(
                trim: result, firstFrameMilliseconds: firstMilliseconds, chapters: [],
                timelapse: .init(
                    framesDecoded: selection.fed.count, keyframesOnly: selection.keyframesOnly,
                    capturedMilliseconds: joined.captureTime(at: index.video[selection.kept[count - 1]].pts - base).milliseconds
                        - firstMilliseconds + Int64(frameSeconds * 1000)
                )
            )
        } catch {
            output.discard()
            throw failure(error, trimming: name, to: output, control: control)
        }
    }

    /// One encoded frame of a time-lapse, in the spill file.
    private struct EncodedFrame {
        var offset: UInt64
        var size: UInt32
        var isSync: Bool
    }

    /// Decodes the frames `selection` feeds, encodes those it keeps to H.264 (a keyframe
    /// every 2 s of the time-lapse) and appends them to `spill` as they come.
    private static func encode(
        _ selection: TimelapseSelection, of input: MP4Input, spill: String, control: TrimControl
    ) throws -> (frames: [EncodedFrame], configuration: [UInt8]) {
        let index = input.index
        let caps = try Caps(index.videoCaps)
        let codec = TrimCodec.forIndex(index)
        let rate = PlannedCut.averageFrameRate(index.video) ?? 30
        var encoding = VideoEncoding.whole(from: codec, caps: caps, codecData: index.codecData, framesPerSecond: rate)
        // A keyframe every 2 s of the time-lapse (x264's key-int-max counts frames), not one only.
        encoding.encoder += " key-int-max=\(max(1, Int((2 * rate).rounded())))"
        encoding.outputCaps = "video/x-h264,stream-format=avc,alignment=au"
        // The decoder takes no negative times (an edit list, e.g. for sound's priming, can put a
        // movie's first frames before 0, where they would all be 0 and not told apart): every
        // frame is moved later by the same amount.
        let shift = max(0, -(selection.fed.map { min(index.video[$0].pts, index.video[$0].dts) }.min() ?? 0))
        let kept = Set(selection.kept.map { index.video[$0].pts + shift })
        let encoder = try FrameEncoder(
            codec: codec, inputCaps: caps, keeping: { kept.contains($0) }, encoding: encoding, parameterSetID: 0,
            effort: .whole, control: control
        )
        let descriptor = open(spill, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw CamrecError.failed("cannot write \(spill): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        var frames: [EncodedFrame] = []
        var position: UInt64 = 0
        func store(_ buffers: [Buffer]) throws {
            for buffer in buffers {
                let bytes = buffer.bytes
                var done = 0
                while done < bytes.count {
                    let wrote = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress.map { $0 + done }, bytes.count - done) }
                    if wrote < 0, errno == EINTR { continue }
                    guard wrote > 0 else {
                        throw errno == ENOSPC || errno == EDQUOT
                            ? MP4Error("no space left on the device writing \(spill)", isNoSpace: true)
                            : MP4Error("cannot write \(spill)")
                    }
                    done += wrote
                }
                frames.append(EncodedFrame(offset: position, size: UInt32(bytes.count), isSync: buffer.isKeyframe))
                position += UInt64(bytes.count)
            }
        }
        for frame in selection.fed {
            try control.checkCancelled()
            var video = index.video[frame]
            video.pts += shift
            video.dts += shift
            // Frames before the one kept that no other frame refers to need no decoding.
            let keep = kept.contains(video.pts) ? video.pts..<(video.pts + 1) : (video.pts + 1)..<(video.pts + 2)
            try encoder.feed(video, bytes: try input.videoSample(at: frame), isKeyframe: input.video.samples[frame].isSync,
                             keep: keep, lengthSize: input.lengthSize)
            try store(try encoder.available())
        }
        encoder.finish()
        try store(try encoder.remaining())
        guard let configuration = encoder.outputConfiguration else { throw CamrecError.failed("the encoder declared no avcC") }
        return (frames, configuration)
    }

    /// Writes the encoded frames as the movie's only track, each `frameTicks` long.
    private static func write(
        _ frames: [EncodedFrame], configuration: [UInt8], frameTicks: UInt32, from input: MP4Input, spill: String,
        to path: String
    ) throws {
        guard let entry = SampleEntry.replacingChild("avcC", with: configuration, in: input.video.sampleEntry)
        else { throw CamrecError.failed("cannot describe the time-lapse's H.264") }
        let track = OutputTrack(
            template: input.video, sampleEntry: entry, edits: [],
            samples: frames.map {
                OutputSample(source: .file(offset: $0.offset, size: $0.size), duration: frameTicks, compositionOffset: 0,
                             isSync: $0.isSync)
            }
        )
        try MovieWriter.write(
            path: path, sourcePath: spill, fileType: input.movie.fileType, movieTimescale: input.movie.timescale, tracks: [track]
        )
    }

    /// The most common frame duration of a track (its ticks): the series' frame rate.
    static func typicalDuration(_ track: Track) -> UInt32 {
        var counts: [UInt32: Int] = [:]
        for sample in track.samples { counts[sample.duration, default: 0] += 1 }
        return counts.max { $0.value < $1.value }?.key ?? max(1, track.timescale / 30)
    }
}

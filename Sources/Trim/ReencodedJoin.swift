import CamrecCore
import GStreamer
import MP4
#if canImport(Glibc)
import Glibc
import MediaValues
#endif

/// Movies that cannot be joined by copying (another size or codec after a reconnect)
/// joined into one by decoding and encoding again: `camrec export --reencode`. Each part is
/// already an exact cut (its frames are the ones captured in its range); the join keeps
/// every frame of every part with its own duration, scales each picture to the first
/// part's size (keeping its shape, with borders where the shapes differ) and encodes them
/// to H.264, with the sound to AAC. Chapters start where the caller says, and the output
/// is stamped with the first part's capture time.
public struct ReencodedJoin: Sendable {
    /// The parts, MP4 or MOV, in order.
    public var parts: [String]
    /// The file to write (MP4 or MOV, by its name).
    public var output: String
    /// Whether an existing output is replaced.
    public var force: Bool
    /// Chapters of the joined movie: start in seconds, title.
    public var chapters: [(start: Double, title: String)]

    public init(parts: [String], output: String, force: Bool, chapters: [(start: Double, title: String)]) {
        self.parts = parts
        self.output = output
        self.force = force
        self.chapters = chapters
    }

    /// What a part holds, read from its movie box.
    struct Part {
        var path: String
        var width: Int
        var height: Int
        var frames: Int
        /// The most common frame duration, as a rate fraction (timescale / ticks).
        var rate: (numerator: Int, denominator: Int)
        /// Sound: sample rate and channels; nil without sound.
        var sound: (rate: Int, channels: Int)?
        var seconds: Double
    }

    /// Writes the joined movie (beside `output`, checked, then renamed into place) and says
    /// what it holds. Blocks the calling thread.
    ///
    /// - Throws: invalid input (exit 65) for a part that cannot be read or parts of which
    ///   some have sound and some not; `stalled` or `interrupted`; nothing is left behind.
    public func run(control: TrimControl = TrimControl()) throws(CamrecError) -> TrimResult {
        guard let firstPath = parts.first else { throw .invalidInput("no movie to join") }
        let read = try parts.map { path throws(CamrecError) in try Self.read(path) }
        let first = read[0]
        let withSound = read.filter { $0.sound != nil }.count
        guard withSound == 0 || withSound == read.count else {
            let silent = read.filter { $0.sound == nil }.map { PathName.last($0.path) }
            throw CamrecError(
                .invalidInput,
                "some of the movies to join have sound and \(silent.joined(separator: ", ")) not: export them apart, without --reencode"
            )
        }
        let request = TrimRequest(input: firstPath, start: TimeSpec(nanoseconds: 0), destination: .path(output), force: force)
        let output = try TrimOutput.prepare(for: request, inputContainer: .mp4)
        guard output.container == .mp4 || output.container == .mov else {
            throw CamrecError(.usage, "camrec export writes MP4 or MOV: end -o with .mp4 or .mov")
        }
        control.track(temporaryPath: output.temporaryPath)
        try output.checkWritable()
        let name = PathName.last(self.output)
        do {
            try encode(read, muxer: output.container == .mov ? "qtmux" : "mp4mux", to: output.temporaryPath, control: control)
            try Self.endWithMovieBox(output.temporaryPath)
            let movie = try Movie.read(path: output.temporaryPath)
            guard let video = movie.tracks.first(where: \.isVideo) else { throw CamrecError.failed("the joined movie has no picture") }
            let expected = read.reduce(0) { $0 + $1.frames }
            guard video.samples.count == expected else {
                throw CamrecError.failed("the joined movie has \(video.samples.count) frames instead of \(expected)")
            }
            let sound = movie.tracks.first(where: \.isAudio)
            guard (sound != nil) == (first.sound != nil) else { throw CamrecError.failed("the joined movie lost its sound") }
            if !chapters.isEmpty {
                let list = ChapterList(chapters.map {
                    Chapter(start: Int64(($0.start * 1e9).rounded()), end: nil, title: $0.title)
                })
                guard try NeroChapterList.add(list, to: output.temporaryPath) else {
                    throw CamrecError.failed("cannot add the chapters to the joined movie")
                }
            }
            try? CaptureTimeStamp.read(path: firstPath)?.write(into: output.temporaryPath)
            try control.checkCancelled()
            try output.commit(keepingModeOf: nil, control: control)
            let timescale = Double(max(1, video.timescale))
            let end = video.samples.last.map { Double($0.presentationTime + Int64($0.duration)) / timescale } ?? 0
            let last = video.samples.last.map { Double($0.presentationTime) / timescale } ?? 0
            return TrimResult(
                mode: .reencode, requestedMode: .reencode, fallbackReason: nil, output: output.finalPath,
                bytes: OutputFile.size(of: output.finalPath), firstFrameTime: 0, lastFrameTime: last, duration: end,
                frames: expected, framesCopied: 0, framesReencoded: expected, audioPackets: sound?.samples.count ?? 0,
                tracks: [TrimTrack(kind: .video, codec: "avc1", samples: expected)]
                    + (sound.map { [TrimTrack(kind: .audio, codec: "mp4a", samples: $0.samples.count)] } ?? [])
            )
        } catch {
            output.discard()
            throw Trimmer.failure(error, trimming: name, to: output, control: control)
        }
    }

    /// Decodes the parts one after the other (`concat`), scales each to the first one's
    /// size and encodes them into one movie at `path`.
    private func encode(_ parts: [Part], muxer: String, to path: String, control: TrimControl) throws {
        let first = parts[0]
        // Every part is given the same caps (size, shape, format and the first part's rate)
        // so that the encoder is set up once: one sample description for the whole movie.
        let picture = "video/x-raw,format=I420,width=\(first.width),height=\(first.height),pixel-aspect-ratio=1/1"
            + ",interlace-mode=progressive"
        let rate = "video/x-raw,framerate=\(first.rate.numerator)/\(first.rate.denominator)"
        let keyframes = max(1, Int((2 * Double(first.rate.numerator) / Double(first.rate.denominator)).rounded()))
        var description = "concat name=pictures ! queue ! x264enc bframes=0 speed-preset=veryfast pass=qual quantizer=18"
            + " key-int-max=\(keyframes) ! video/x-h264,profile=high ! h264parse ! \(muxer) name=mux ! filesink name=sink"
        if first.sound != nil {
            description += " concat name=sounds ! queue ! audioconvert ! avenc_aac ! aacparse ! mux."
        }
        for index in parts.indices {
            description += " filesrc name=source\(index) ! qtdemux name=demux\(index)"
                + " demux\(index).video_0 ! queue ! decodebin ! videoconvert ! videoscale add-borders=true ! \(picture)"
                + " ! capssetter caps=\"\(rate)\" ! pictures.sink_\(index)"
            // (Every part has sound, or none: run refuses a mix.)
            if let sound = first.sound {
                description += " demux\(index).audio_0 ! queue ! decodebin ! audioconvert ! audioresample"
                    + " ! audio/x-raw,format=F32LE,layout=interleaved,rate=\(sound.rate),channels=\(sound.channels)"
                    + " ! sounds.sink_\(index)"
            }
        }
        let pipeline = try Pipeline.parse(description)
        defer { _ = try? pipeline.setState(.null) }
        try pipeline.element(named: "sink").set("location", path)
        for (index, part) in parts.enumerated() {
            try pipeline.element(named: "source\(index)").set("location", part.path)
        }
        _ = try pipeline.setStateThrowingPostedError(.playing)
        let total = parts.reduce(0) { $0 + $1.seconds }
        try PipelineRunner.waitForEndOfStream(
            pipeline, watch: control.watch("the re-encoder"), progress: { OutputFile.size(of: path) },
            poll: {
                guard let position = pipeline.position(), total > 0 else { return }
                control.report(TrimProgress(phase: .writing, fraction: Double(position) / 1e9 / total, totalSeconds: total))
            }
        )
    }

    /// Drops what the muxer writes after the movie box (the sources' tags as XMP in a
    /// `uuid` box), so that the movie box ends the file and can take the chapters and the
    /// capture time.
    static func endWithMovieBox(_ path: String) throws(CamrecError) {
        guard let file = try? SampleFile(path: path), let boxes = try? Box.topLevel(in: file),
              let movie = boxes.lastIndex(where: { $0.type == "moov" })
        else { throw CamrecError.failed("the joined movie has no movie box") }
        let after = boxes[(movie + 1)...]
        guard !after.isEmpty else { return }
        guard after.allSatisfy({ $0.type == "uuid" || $0.type == "free" }), truncate(path, off_t(boxes[movie].end)) == 0 else {
            throw CamrecError.failed("the joined movie has \(after.map(\.type).joined(separator: ", ")) after its movie box")
        }
    }

    /// What the movie at `path` holds.
    static func read(_ path: String) throws(CamrecError) -> Part {
        let movie: Movie
        do {
            movie = try Movie.read(path: path)
        } catch {
            throw CamrecError(.invalidInput, "cannot read \(path): \(error)")
        }
        guard let video = movie.tracks.first(where: \.isVideo), !video.samples.isEmpty,
              let size = SampleEntry.visualSize(of: video.sampleEntry)
        else { throw CamrecError(.invalidInput, "\(path) has no picture to join") }
        let ticks = Trimmer.typicalDuration(video)
        let sound = movie.tracks.first(where: \.isAudio).flatMap { SampleEntry.audioFormat(of: $0.sampleEntry) }
        let seconds = Double(video.samples.reduce(0) { $0 + Int64($1.duration) }) / Double(max(1, video.timescale))
        return Part(path: path, width: size.width, height: size.height, frames: video.samples.count,
                    rate: (Int(video.timescale), Int(ticks)), sound: sound, seconds: seconds)
    }
}

import FoundationEssentials
import MediaValues
#if canImport(Glibc)
import Glibc
#endif
import GStreamer

/// Writes the trimmed movie: `appsrc ! parser ! muxer ! filesink` for video and an appsrc
/// into the same muxer for each other stream (sound, subtitles), in the order given.
/// Buffers arrive with their final timestamps (the output timeline starts at 0).
final class MovieMuxer {
    /// Where the output timeline starts in buffer times: decoding times of a stream with
    /// B-frames begin before their first presentation time, and buffer times cannot be negative.
    static let timelineStart: UInt64 = 3600 * 1_000_000_000

    private let pipeline: Pipeline
    /// The errors posted on the pipeline's bus, left there for `finish()`'s reader.
    private let errors: ErrorWatch
    private let video: AppSrc
    private let streams: [AppSrc]
    private var videoStarted = false
    private var capsFilter: ProbeToken?
    private var started: [Bool]
    private let path: String
    private let control: TrimControl

    /// `streams`: the other streams, each with the muxer pad kind it goes to and its caps.
    /// `tags`: each track's stream tags (language, name), the video's first, then the
    /// streams' in order, sent ahead of its first buffer. `chapters`: the table of contents
    /// for a muxer that writes one (matroskamux). `control` bounds the wait for the muxer
    /// to finish and stops on cancellation. `creationTime`: when the first frame was
    /// captured (µs since 1970), written as Matroska's `DateUTC`.
    init(
        path: String, container: MediaContainer, codec: TrimCodec, videoCaps: Caps,
        streams: [(kind: MuxerSupport.PadKind, caps: Caps)], tags: [StreamTags] = [], chapters: TableOfContents? = nil,
        creationTime: Int64? = nil, control: TrimControl
    ) throws(GStreamerError) {
        self.path = path
        self.control = control
        pipeline = try Pipeline(name: "trim-writer")
        errors = ErrorWatch(errorsOf: pipeline)
        let videoSource = try Element.make("appsrc", name: "video-source")
        try videoSource.set("format", nick: "time")
        try videoSource.set("handle-segment-change", true)
        let muxer = try Element.make(container.muxerFactory, name: "muxer")
        // Before the first buffer: the muxer writes its header (chapters included) then.
        if let chapters { muxer.setTableOfContents(chapters) }
        // When the first frame was captured (microseconds since 1970): Matroska's DateUTC.
        if let creationTime, container == .matroska { try? muxer.set("creation-time", .dateTime(unixMicroseconds: creationTime)) }
        let sink = try Element.make("filesink", name: "sink")
        try sink.set("location", path)
        var videoChain = [videoSource]
        if let parser = codec.muxerParser { videoChain.append(try Element.make(parser, name: "video-parser")) }
        for element in videoChain + [muxer, sink] { try pipeline.add(element) }
        video = try AppSrc(videoSource)
        video.setCaps(videoCaps)
        // appsrc queues a serialized event in order with its buffers: the tags reach the
        // muxer before the first frame, so before it writes its track headers.
        if let first = tags.first, let event = Event.streamTags(first) { videoSource.send(event) }
        for (element, next) in zip(videoChain, videoChain.dropFirst()) { try element.link(next) }
        // Request the muxer's pads by template: automatic linking may pick a video pad for audio.
        let videoPad = try videoChain[videoChain.count - 1].staticPad("src")
        try videoPad.link(muxer.requestPad("video_%u"))
        if codec.muxerParser != nil {
            // The parser re-derives profile and level from whichever parameter set it saw last
            // (the source's or the re-encoder's); the decoder configuration in the first caps
            // already holds both sets, so later caps carry nothing new. Matroska refuses caps changes.
            capsFilter = videoPad.keepFirstCaps()
        }
        try muxer.link(sink)
        var sources: [AppSrc] = []
        for (position, stream) in streams.enumerated() {
            let element = try Element.make("appsrc", name: "stream-source-\(position)")
            try element.set("format", nick: "time")
            try element.set("handle-segment-change", true)
            try pipeline.add(element)
            let source = try AppSrc(element)
            source.setCaps(stream.caps)
            if position + 1 < tags.count, let event = Event.streamTags(tags[position + 1]) { element.send(event) }
            var last = element
            if container == .matroska, stream.caps.mediaType == "audio/x-flac" {
                // matroskademux gives FLAC's headers in Matroska's form; matroskamux takes them
                // only in the Ogg mapping's, which flacparse makes.
                let parser = try Element.make("flacparse", name: "stream-parser-\(position)")
                try pipeline.add(parser)
                try element.link(parser)
                last = parser
            }
            try last.staticPad("src").link(muxer.requestPad(stream.kind.template))
            sources.append(source)
        }
        self.streams = sources
        started = Array(repeating: false, count: sources.count)
        try pipeline.setStateThrowingPostedError(.playing)
    }

    /// Pushes a video frame whose times are relative to ``timelineStart``.
    func pushVideo(_ buffer: Buffer) throws(GStreamerError) {
        let result = videoStarted ? video.push(buffer) : video.push(buffer, segmentStart: Self.timelineStart)
        videoStarted = true
        guard result == .ok else {
            try PipelineRunner.checkForError(errors)
            throw .flow(result, context: "the muxer refused a video frame")
        }
    }

    /// Pushes a packet of stream `stream` (its position in `streams`) whose times are
    /// relative to ``timelineStart``.
    func push(_ buffer: Buffer, stream: Int) throws(GStreamerError) {
        let source = streams[stream]
        let result = started[stream] ? source.push(buffer) : source.push(buffer, segmentStart: Self.timelineStart)
        started[stream] = true
        guard result == .ok else {
            try PipelineRunner.checkForError(errors)
            throw .flow(result, context: "the muxer refused a packet of stream \(stream + 1)")
        }
    }

    /// Ends both tracks and waits until the muxer has finalised the file; throws `stalled`
    /// when the file stops growing for the stall timeout before that.
    func finish() throws {
        video.endOfStream()
        for source in streams { source.endOfStream() }
        try PipelineRunner.waitForEndOfStream(pipeline, watch: control.watch("the muxer (\(pipeline.name))")) { [path] in
            var info = stat()
            return stat(path, &info) == 0 ? Int64(info.st_size) : -1
        }
        try pipeline.setStateThrowingPostedError(.null)
    }

    deinit { _ = try? pipeline.setState(.null) }
}

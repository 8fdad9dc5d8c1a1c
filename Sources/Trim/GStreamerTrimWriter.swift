import CamrecCore
import GStreamer

/// Runs a ``TrimPlan`` on a ``GStreamerInput`` through a GStreamer muxer: reads the input
/// once from the first frame the plan needs, feeds the re-encoders, copies the body, and
/// joins everything into one muxer (``MovieMuxer``) with timestamps rewritten so that the
/// output starts at 0. Every sound and subtitle stream the muxer takes is copied alongside
/// (``StreamCopier``: sound as one continuous run per track).
struct GStreamerTrimWriter: TrimWriter {
    let input: GStreamerInput
    let job: TrimJob

    var index: FrameIndex { input.index }
    var plan: TrimPlan { job.plan }
    var codec: TrimCodec { job.codec }
    var control: TrimControl { job.control }

    func write() throws -> WrittenMovie {
        var state = try State(writer: self)
        try state.run()
        guard state.videoFrames == plan.frameCount else {
            throw CamrecError.failed("wrote \(state.videoFrames) video frames instead of \(plan.frameCount)")
        }
        // MP4/MOV rotation: GStreamer 1.22's muxers do not write the input's display matrix.
        if index.container != .matroska, job.outputContainer != .matroska,
           let matrix = TrackMatrix.videoMatrix(in: input.path), matrix != TrackMatrix.identity {
            TrackMatrix.setVideoMatrix(matrix, in: job.outputPath)
        }
        var written = state.streams.notKept
        written.warnings += try keepLabelsAndChapters(labels: state.labels, chapters: state.chapters)
        written.tracks = [TrimTrack(kind: .video, codec: job.outputCodec.mediaType, samples: state.videoFrames)]
            + state.streams.written
        return written
    }

    /// Indexes the output again through its demuxer.
    func countWrittenFrames() throws -> Int {
        // Matroska: the written blocks counted by camrec's own reader of the file (not the
        // writer's bookkeeping), without a demuxing pass over a long output.
        if job.outputContainer == .matroska, var blocks = MatroskaBlockIndex(path: job.outputPath, videoCaps: nil),
           let count = blocks.videoFrameCount() {
            return count
        }
        return try GStreamerInput.indexWholeFile(path: job.outputPath, control: control, reportingProgress: false).video.count
    }
}

private final class PartState {
    let part: TrimPart
    /// Where the part's frames lie in the output timeline.
    let positions: Range<Int>
    var encoder: FrameEncoder?
    var emitted = 0
    var fed = 0
    var fedAll = false

    init(part: TrimPart, positions: Range<Int>) {
        self.part = part
        self.positions = positions
    }
}

extension GStreamerTrimWriter {
    fileprivate struct State {
        let writer: GStreamerTrimWriter
        let samples: DemuxedSamples
        let parts: [PartState]
        let sourceSets: H264ParameterSets?
        let parameterSetID: Int
        /// Where every output frame goes (nanoseconds).
        let timeline: OutputTimeline
        /// The sound and subtitle streams kept, placed as the demuxer delivers them.
        var streams: StreamCopier
        var muxer: MovieMuxer?
        /// The output's tracks' labels (video first) and the chapters it keeps, known once the muxer is made.
        var labels: [TrackLabels] = []
        var chapters: TableOfContents?
        var videoCaps: Caps?
        var cursor = 0
        var videoFrames = 0

        init(writer: GStreamerTrimWriter) throws {
            self.writer = writer
            // DTS kept apart by at least a millisecond where they must be forced to rise.
            timeline = OutputTimeline(plan: writer.plan, index: writer.index, minimumDecodeStep: 1_000_000)
            streams = StreamCopier(
                index: writer.index, inputPath: writer.input.path, timeline: timeline,
                outputContainer: writer.job.outputContainer
            )
            samples = try writer.input.samples(
                from: writer.plan.readFrom, codec: writer.codec, streams: streams.padNames,
                lead: streams.subtitleLead(container: writer.index.container), control: writer.control
            )
            parts = zip(writer.plan.parts, timeline.parts).map(PartState.init)
            let fromCaps = writer.index.codecData.flatMap { H264ParameterSets(avcC: $0) }
            sourceSets = writer.codec == .h264 ? fromCaps : nil
            parameterSetID = sourceSets?.freeID ?? 1
        }

        var reader: MovieReader { samples.reader }

        mutating func run() throws {
            defer { samples.stop() }
            while samples.nextIndex <= writer.plan.readThrough {
                try writer.control.checkCancelled()
                let (decodeIndex, sample, buffer) = try samples.next()
                if videoCaps == nil { videoCaps = sample.caps }
                try process(buffer, at: decodeIndex)
                try pushAvailableStreams()
            }
            try advanceOutput()
            try finishStreams()
            guard let muxer else { throw CamrecError.failed("nothing was written") }
            try muxer.finish()
        }

        private mutating func process(_ buffer: Buffer, at decodeIndex: Int) throws {
            for part in parts {
                guard case .encode(let feed, let keep) = part.part, feed.contains(decodeIndex) else { continue }
                if part.encoder == nil {
                    guard let caps = videoCaps, let encoding = writer.job.encoding else {
                        throw CamrecError.failed("the video has no caps or no encoding")
                    }
                    part.encoder = try FrameEncoder(
                        codec: writer.codec, inputCaps: caps, keep: keep, encoding: encoding,
                        parameterSetID: parameterSetID, effort: writer.job.effort, control: writer.control
                    )
                }
                if part.fed == 0, let first = withParameterSets(buffer) {
                    try part.encoder?.push(first)
                } else {
                    try part.encoder?.push(buffer)
                }
                part.fed += 1
                if decodeIndex == feed.upperBound {
                    part.encoder?.finish()
                    part.fedAll = true
                }
            }
            try advanceOutput()
            if cursor < parts.count, case .copy(let range) = parts[cursor].part, range.contains(decodeIndex) {
                // A copy that follows a re-encoded part starts with the source's configuration
                // (one that follows a copy, past an open GOP's leading pictures, goes on from it).
                let afterEncoded = cursor > 0 && !parts[cursor - 1].part.isCopy
                let frame = decodeIndex == range.lowerBound && afterEncoded ? carryingSourceConfiguration(buffer) : buffer
                try emitVideo(frame, at: timeline.position(ofCopied: decodeIndex, inPart: cursor))
                if decodeIndex == range.upperBound { cursor += 1 }
            }
        }

        /// Emits the output of the parts in order: what the current encoder has ready, and all
        /// of it (waiting for the encoder to drain) once it has been fed everything.
        private mutating func advanceOutput() throws {
            while cursor < parts.count {
                let part = parts[cursor]
                guard case .encode = part.part, let encoder = part.encoder else { return }
                let ready = part.fedAll ? try encoder.remaining() : try encoder.available()
                for buffer in ready {
                    guard part.emitted < part.positions.count else {
                        throw CamrecError.failed("the re-encoder produced more frames than it was given")
                    }
                    // The encoder returns its frames in presentation order, as the timeline lists them.
                    let frame = edgeFrame(buffer, first: part.emitted == 0, configuration: encoder.outputConfiguration)
                    try emitVideo(frame, at: part.positions.lowerBound + part.emitted)
                    part.emitted += 1
                }
                guard part.fedAll else { return }
                guard part.emitted == part.positions.count else {
                    throw CamrecError.failed("the re-encoder returned \(part.emitted) of \(part.positions.count) frames")
                }
                part.encoder = nil
                cursor += 1
            }
        }

        /// A re-encoded frame as the output stream takes it: AV1 without temporal delimiters
        /// (as demuxers give the source's); the first of a part with the encoder's own
        /// configuration in front when it carries none (the output's sample description
        /// holds the source's); an MPEG-4 Part 2 VOL with the source's delay
        /// (``MPEG4VideoObjectLayer``).
        private func edgeFrame(_ buffer: Buffer, first: Bool, configuration: [UInt8]?) -> Buffer {
            let codec = writer.job.outputCodec
            var bytes = buffer.bytes
            if codec.configuration == .av1SequenceHeader { bytes = AV1OBUs.withoutTemporalDelimiters(bytes) }
            if first { bytes = codec.configuration.carrying(configuration, in: bytes) }
            if codec.edgeEncoder == .mpeg4, let lowDelay = MPEG4VideoObjectLayer.lowDelay(in: sourceConfiguration ?? []) {
                let matched = MPEG4VideoObjectLayer.settingLowDelay(lowDelay, in: bytes)
                if matched != bytes { return buffer.replacingBytes(matched) ?? buffer }
            }
            return bytes.count == buffer.size ? buffer : buffer.replacingBytes(bytes) ?? buffer
        }

        /// The source's decoder configuration: its container's (`codec_data`), else the one its
        /// parser found in the stream (AVI stores MPEG-4 Part 2's VOL in its keyframes only).
        private var sourceConfiguration: [UInt8]? {
            writer.index.codecData ?? videoCaps?.bytes("codec_data")
        }

        /// A copied frame with the source's configuration in front, when it carries none.
        private func carryingSourceConfiguration(_ buffer: Buffer) -> Buffer {
            let bytes = buffer.bytes
            let joined = writer.codec.configuration.carrying(sourceConfiguration, in: bytes)
            return joined.count == bytes.count ? buffer : buffer.replacingBytes(joined) ?? buffer
        }

        /// `buffer` with the source's SPS and PPS inserted before its first slice, unless it
        /// already carries an SPS; nil when there is nothing to add. A copy or a decode that
        /// starts on an open-GOP I-frame (not an IDR) gets no parameter sets from the parser.
        private func withParameterSets(_ buffer: Buffer) -> Buffer? {
            guard let sets = sourceSets else { return nil }
            let bytes = buffer.bytes
            let present = Set(H264ParameterSets(annexB: bytes).sequenceSets.compactMap(H264ParameterSets.sequenceSetID))
            let needed = Set(sets.sequenceSets.compactMap(H264ParameterSets.sequenceSetID))
            guard !needed.isSubset(of: present) else { return nil }
            return buffer.replacingBytes(H264ParameterSets.inserting(sets.annexB, beforeFirstSliceOf: bytes))
        }

        /// Pushes the frame at `position` of the timeline to the muxer (made on the first).
        private mutating func emitVideo(_ buffer: Buffer, at position: Int) throws {
            let frame = timeline.frames[position]
            var output = buffer
            if muxer == nil {
                guard let caps = videoCaps else { throw CamrecError.failed("the video has no caps") }
                let codec = writer.job.outputCodec
                // H.264 and HEVC: the muxer's parser builds the decoder configuration from the
                // stream; other codecs keep the source's (`codec_data`) as their description.
                let parserBuildsConfiguration = codec.muxerParser == "h264parse" || codec.muxerParser == "h265parse"
                let muxerCaps = codec != writer.codec
                    ? try Caps(codec.readerCaps ?? codec.mediaType)
                    : parserBuildsConfiguration ? caps.removingFields(["codec_data"]) : caps
                let container = writer.job.outputContainer
                labels = writer.trackLabels(pads: reader.demuxerPads, streams: streams.padNames)
                chapters = writer.keptChapters(pads: reader.demuxerPads)
                muxer = try MovieMuxer(
                    path: writer.job.outputPath, container: container, codec: writer.job.outputCodec,
                    videoCaps: muxerCaps, streams: streams.muxerStreams,
                    tags: labels.map { $0.streamTags(for: container) },
                    chapters: container == .matroska ? chapters : nil,
                    creationTime: writer.job.capturedMilliseconds.map { $0 * 1000 }, control: writer.control
                )
                if frame.isCopied || writer.plan.framesCopied > 0, let joined = withParameterSets(buffer) {
                    // The source's parameter sets in the first access unit (with the re-encoder's,
                    // when it comes first): the parser builds one decoder configuration for the file.
                    output = joined
                }
            }
            let base = Int64(MovieMuxer.timelineStart)
            let stamped = output.edited { output in
                output.pts = UInt64(base + frame.pts)
                output.dts = UInt64(base + frame.dts)
                output.duration = frame.duration > 0 ? UInt64(frame.duration) : nil
            }
            guard let stamped else { throw CamrecError.failed("out of memory for a frame's times") }
            try muxer?.pushVideo(stamped)
            videoFrames += 1
            writer.control.report(TrimProgress(
                phase: .writing, done: min(frame.pts + max(0, frame.duration), timeline.end), total: timeline.end
            ))
        }

        private mutating func pushAvailableStreams() throws {
            guard let muxer else { return }
            for position in 0..<reader.streamCount {
                for sample in reader.available(position) { try streams.push(sample, of: position, to: muxer) }
            }
        }

        /// Reads the other streams on to the end of the video, discarding the video the
        /// demuxer still sends: each sound stream up to a packet past the window (or its
        /// end); then subtitles, which are sparse, as far as the demuxer has delivered them
        /// (it delivers in time order, so every cue before the window's end has come once
        /// the sound has passed it). Throws `stalled` when nothing comes for the stall timeout.
        private mutating func finishStreams() throws {
            guard let muxer else { return }
            var watch = writer.control.watch("the demuxer (reading sound and subtitles)")
            while !streams.soundDone {
                let mark = reader.activityMark
                var progressed = false
                for position in 0..<reader.streamCount where !streams.streams[position].done {
                    let ready = reader.available(position)
                    for sample in ready { try streams.push(sample, of: position, to: muxer) }
                    if !ready.isEmpty { progressed = true }
                    if reader.hasEnded(position) {
                        for sample in reader.available(position) { try streams.push(sample, of: position, to: muxer) }
                        streams.end(position)
                    }
                }
                if progressed { watch.progressed() }
                if streams.soundDone { break }
                let discarded = reader.discardVideo()
                if discarded > 0 { watch.progressed() }
                try reader.check()
                // Nothing to do until a packet (or video to discard) comes: block until it does.
                if !progressed, discarded == 0 { try reader.waitForActivity(since: mark, watch: watch) }
            }
            // Subtitle cues still in their queues reach their sinks; then take them all.
            var drain = writer.control.watch("the demuxer (reading subtitles)")
            for position in 0..<reader.streamCount where !streams.streams[position].done {
                while reader.queued(position) > 0, !reader.hasEnded(position) {
                    let mark = reader.activityMark
                    try reader.check()
                    try reader.waitForActivity(since: mark, watch: drain)
                    drain.progressed()
                }
                for sample in reader.available(position) { try streams.push(sample, of: position, to: muxer) }
                streams.end(position)
            }
        }
    }
}

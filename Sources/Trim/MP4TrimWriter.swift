import CamrecCore
import GStreamer
import MP4

/// Runs a ``TrimPlan`` on an ``MP4Input`` with camrec's own MP4 writer: the copied body
/// goes from file to file in the kernel, byte for byte (no demuxing, no per-frame work),
/// and only the re-encoded edges pass through GStreamer (``FrameEncoder``). Head and tail
/// encoders are fed before either is drained, so they run at the same time, and the body
/// is copied meanwhile; the re-encoded frames are stored after it in `mdat`.
struct MP4TrimWriter: TrimWriter {
    let input: MP4Input
    let job: TrimJob
    /// Where every output frame goes, in the video track's ticks (the sample tables' own
    /// unit, so copied frames keep their exact times).
    let timeline: OutputTimeline

    init(input: MP4Input, job: TrimJob) {
        self.input = input
        self.job = job
        timeline = OutputTimeline(
            plan: job.plan, index: input.index, times: input.framesInTrackTicks, minimumDecodeStep: 1
        )
    }

    var plan: TrimPlan { job.plan }
    var control: TrimControl { job.control }

    /// An edge being re-encoded: its encoder (fed and finished) and where the frames it
    /// returns go in the timeline, in order.
    private struct RunningPart {
        var encoder: FrameEncoder
        var positions: Range<Int>
    }

    /// Work done, counted in frames: each frame fed to an encoder, copied, or taken back
    /// re-encoded (the copy itself is one kernel call, counted when it is done).
    private final class Work {
        let total: Int
        var done = 0
        init(total: Int) { self.total = total }
    }

    func write() throws -> WrittenMovie {
        let fed = plan.parts.reduce(0) { count, part in
            if case .encode(let feed, _) = part { count + feed.count } else { count }
        }
        let work = Work(total: fed + plan.framesCopied + plan.framesReencoded)
        let running = try startEncoders(work: work)
        let chapters = keptChapters()
        var (tracks, written, videoPosition) = try outputTracks(video: videoTrack(running: running), chapters: chapters)
        // The body is copied while the encoders work; their frames go in last. The source's
        // dates (when it was recorded) and user data go with it, as a stream copy keeps them
        // (its Nero chapter list cut to the output).
        try MovieWriter.write(
            path: job.outputPath, source: input.file,
            fileType: input.movie.fileType ?? (input.index.container == .mov ? MovieWriter.quickTimeFileType : nil),
            movieTimescale: input.movie.timescale, tracks: tracks, metadata: metadata(keeping: chapters)
        ) { tracks in
            try control.checkCancelled()
            work.done += plan.framesCopied
            report(work)
            try complete(&tracks[videoPosition], running: running, work: work)
        }
        tracks.removeAll()
        try addTrackReferences(keeping: written.keptInputIDs)
        return written.movie
    }

    /// Reads the written movie box back (the frames were counted in, not demuxed).
    func countWrittenFrames() throws -> Int {
        try Movie.read(path: job.outputPath).tracks.first(where: \.isVideo)?.samples.count ?? 0
    }

    // MARK: Re-encoding the edges

    /// Starts an encoder for every encode part and feeds it all its frames; they then encode
    /// at the same time (on their own threads) while the caller goes on.
    private func startEncoders(work: Work) throws -> [Int: RunningPart] {
        guard plan.encodes, let encoding = job.encoding else { return [:] }
        let lengthSize = input.lengthSize
        let caps = try Caps(input.index.videoCaps)
        var used = H264ParameterSets(avcC: input.avcC ?? []).map(\.usedIDs) ?? []
        var running: [Int: RunningPart] = [:]
        let frames = input.index.video
        for (partIndex, part) in plan.parts.enumerated() {
            guard case .encode(let feed, let keep) = part else { continue }
            let id = H264ParameterSets.freeID(avoiding: used)
            used.insert(id)
            let encoder = try FrameEncoder(
                codec: job.codec, inputCaps: caps, keep: keep, encoding: encoding, parameterSetID: id, effort: .edges,
                control: control
            )
            for index in feed {
                try control.checkCancelled()
                work.done += 1
                report(work)
                let frame = frames[index]
                let bytes = try input.videoSample(at: index)
                try encoder.feed(frame, bytes: bytes, isKeyframe: input.video.samples[index].isSync, keep: keep,
                                 lengthSize: lengthSize)
            }
            encoder.finish()
            running[partIndex] = RunningPart(encoder: encoder, positions: timeline.parts[partIndex])
        }
        return running
    }

    /// Waits for the encoders and fills in their frames: H.264 length-prefixed (sync when
    /// IDR), with their parameter sets added to the sample entry's `avcC`; other codecs as
    /// the encoder made them (AV1 without temporal delimiters), the first frame of each
    /// part carrying its configuration.
    private func complete(_ track: inout OutputTrack, running: [Int: RunningPart], work: Work) throws {
        guard !running.isEmpty else { return }
        guard let lengthSize = input.lengthSize else {
            try completeOtherCodec(&track, running: running, work: work)
            return
        }
        var extra = H264ParameterSets()
        for partIndex in plan.parts.indices {
            guard case .encode = plan.parts[partIndex] else { continue }
            let (running, buffers) = try finishedPart(partIndex, running: running, work: work)
            // The encoder returns its frames in presentation order, as the timeline lists them.
            for (position, buffer) in zip(running.positions, buffers) {
                guard let converted = AVCSamples.sample(fromAnnexB: buffer.bytes, lengthSize: lengthSize) else {
                    throw CamrecError.failed("a re-encoded frame is too large for the input's NAL length field")
                }
                track.samples[position].source = .bytes(converted.sample)
                track.samples[position].isSync = converted.sample.withUnsafeBytes {
                    H264Bitstream.isIDR($0, lengthSize: lengthSize)
                }
                extra.sequenceSets += converted.sets.sequenceSets.filter { !extra.sequenceSets.contains($0) }
                extra.pictureSets += converted.sets.pictureSets.filter { !extra.pictureSets.contains($0) }
            }
        }
        guard let avcC = input.avcC, let merged = AVCSamples.merging(extra, into: avcC),
              let entry = SampleEntry.replacingChild("avcC", with: merged, in: track.sampleEntry)
        else { throw CamrecError.failed("cannot combine the re-encoded frames' parameter sets with the input's") }
        track.sampleEntry = entry
    }

    /// The re-encoded part `partIndex`'s remaining frames, all of them (else an error),
    /// counted as done.
    private func finishedPart(_ partIndex: Int, running: [Int: RunningPart], work: Work) throws -> (RunningPart, [Buffer]) {
        guard let part = running[partIndex] else { throw CamrecError.failed("a re-encoded part is missing") }
        let buffers = try part.encoder.remaining()
        work.done += buffers.count
        report(work)
        guard buffers.count == part.positions.count else {
            throw CamrecError.failed("the re-encoder returned \(buffers.count) of \(part.positions.count) frames")
        }
        return (part, buffers)
    }

    private func completeOtherCodec(_ track: inout OutputTrack, running: [Int: RunningPart], work: Work) throws {
        let configuration = job.codec.configuration
        let sourceLowDelay = job.codec.edgeEncoder == .mpeg4
            ? MPEG4VideoObjectLayer.lowDelay(in: input.index.codecData ?? []) : nil
        for partIndex in plan.parts.indices {
            guard case .encode = plan.parts[partIndex] else { continue }
            let (running, buffers) = try finishedPart(partIndex, running: running, work: work)
            for (offset, (position, buffer)) in zip(running.positions, buffers).enumerated() {
                var bytes = buffer.bytes
                if configuration == .av1SequenceHeader { bytes = AV1OBUs.withoutTemporalDelimiters(bytes) }
                if offset == 0 { bytes = configuration.carrying(running.encoder.outputConfiguration, in: bytes) }
                // An MPEG-4 Part 2 VOL declares the source's delay (see MPEG4VideoObjectLayer).
                if let sourceLowDelay { bytes = MPEG4VideoObjectLayer.settingLowDelay(sourceLowDelay, in: bytes) }
                track.samples[position].source = .bytes(bytes)
                track.samples[position].isSync = buffer.isKeyframe
            }
        }
    }

    private func report(_ work: Work) {
        let total = plan.endPTS - plan.firstPTS
        control.report(TrimProgress(
            phase: .writing, fraction: Double(work.done) / Double(max(1, work.total)), totalSeconds: Double(total) / 1e9
        ))
    }

    // MARK: Tracks

    /// The video track in output order: copied frames from the file, re-encoded ones pending.
    /// Decoding starts at 0; the edit list hides the B-frame delay so the first frame shows at 0.
    private func videoTrack(running: [Int: RunningPart]) throws -> OutputTrack {
        let missing = plan.parts.indices.contains { index in
            if case .encode = plan.parts[index] { running[index] == nil } else { false }
        }
        guard !missing else { throw CamrecError.failed("a re-encoded part is missing") }
        let samples = input.video.samples
        let frames = timeline.frames
        var output = frames.indices.map { position in
            let frame = frames[position]
            let sample = samples[frame.source]
            return OutputSample(
                source: frame.isCopied ? .file(offset: sample.offset, size: sample.size) : .pending,
                duration: UInt32(clamping: timeline.decodeDuration(at: position)),
                compositionOffset: Int32(clamping: frame.pts - frame.dts), isSync: frame.isCopied && sample.isSync
            )
        }
        // A copy that follows a re-encoded part starts with the source's configuration
        // (MPEG-4 Part 2 VOL, MPEG-1/2 sequence header, AV1 sequence header) if it has none.
        let configuration = job.codec.configuration
        if configuration != .none, configuration != .h264ParameterSets {
            for (partIndex, part) in plan.parts.enumerated() where partIndex > 0 && !plan.parts[partIndex - 1].isCopy {
                guard case .copy = part, let position = timeline.parts[partIndex].first else { continue }
                let bytes = try input.videoSample(at: frames[position].source)
                let joined = configuration.carrying(input.index.codecData, in: bytes)
                if joined.count != bytes.count { output[position].source = .bytes(joined) }
            }
        }
        let length = UInt64(max(0, timeline.end)) * UInt64(input.movie.timescale) / UInt64(input.video.timescale)
        return OutputTrack(
            template: input.video, edits: [Edit(segmentDuration: length, mediaTime: -(frames.first?.dts ?? 0))],
            samples: output
        )
    }

    /// The packets of a sound track in the timeline's window (placed through the track's
    /// own edit list, `offset`), as one run, delayed by an empty edit when it starts after
    /// the video; nil when none lies in the window.
    func audioTrack(_ audio: Track, offset: Int64) -> OutputTrack? {
        let packets = audio.samples.map { sample in
            let pts = MP4Input.nanoseconds(sample.presentationTime, audio.timescale)
            return AudioPacket(pts: pts, duration: MP4Input.nanoseconds(sample.presentationTime + Int64(sample.duration), audio.timescale) - pts)
        }
        let window = AudioWindow(plan: plan, presentationOffset: input.index.presentationOffset, audioPresentationOffset: offset)
        guard let run = window.keptRun(of: packets) else { return nil }
        let samples = audio.samples[run].map { sample in
            OutputSample(
                source: .file(offset: sample.offset, size: sample.size), duration: sample.duration,
                compositionOffset: sample.compositionOffset, isSync: sample.isSync
            )
        }
        let movieScale = Int64(input.movie.timescale)
        let mediaLength = samples.reduce(Int64(0)) { $0 + Int64($1.duration) }
        var edits: [Edit] = []
        let delay = window.offset(ofPacketAt: packets[run.lowerBound].pts) * movieScale / 1_000_000_000
        if delay > 0 { edits.append(Edit(segmentDuration: UInt64(delay), mediaTime: -1)) }
        edits.append(Edit(
            segmentDuration: UInt64(mediaLength * movieScale / Int64(audio.timescale)),
            mediaTime: Int64(max(0, audio.samples[run.lowerBound].compositionOffset))
        ))
        return OutputTrack(template: audio, edits: edits, samples: samples)
    }
}

import GStreamer
import MP4

/// Runs a ``TrimPlan`` on an ``MP4Input`` with camrec's own MP4 writer: the copied body
/// goes from file to file in the kernel, byte for byte (no demuxing, no per-frame work),
/// and only the re-encoded edges pass through GStreamer (``FrameEncoder``). Head and tail
/// encoders are fed before either is drained, so they run at the same time, and the body
/// is copied meanwhile; the re-encoded frames are stored after it in `mdat`.
struct MP4TrimWriter: TrimWriter {
    var input: MP4Input
    var job: TrimJob

    var plan: TrimPlan { job.plan }
    var control: TrimControl { job.control }

    /// An edge being re-encoded: its encoder (fed and finished) and the PTS of the frames it
    /// returns, in order.
    private struct RunningPart {
        var encoder: FrameEncoder
        var keptPTS: [Int64]
    }

    /// Work done, counted in frames: each frame fed to an encoder, copied, or taken back
    /// re-encoded (the copy itself is one kernel call, counted when it is done).
    private final class Work {
        let total: Int
        var done = 0
        init(total: Int) { self.total = total }
    }

    func write() throws -> Int {
        let fed = plan.parts.reduce(0) { count, part in
            if case .encode(let feed, _) = part { count + feed.count } else { count }
        }
        let work = Work(total: fed + plan.framesCopied + plan.framesReencoded)
        let running = try startEncoders(work: work)
        let video = try videoTrack(running: running)
        var tracks = [video]
        if let audio = audioTrack() { tracks.append(audio) }
        // The body is copied while the encoders work; their frames go in last.
        try MovieWriter.write(
            path: job.outputPath, sourcePath: input.path,
            fileType: input.movie.fileType ?? (input.index.container == .mov ? MovieWriter.quickTimeFileType : nil),
            movieTimescale: input.movie.timescale, tracks: tracks
        ) { tracks in
            try control.checkCancelled()
            work.done += plan.framesCopied
            report(work)
            try complete(&tracks[0], running: running, work: work)
        }
        return tracks.count > 1 ? tracks[1].samples.count : 0
    }

    /// Reads the written movie box back (the frames were counted in, not demuxed).
    func countWrittenFrames() throws -> Int {
        try Movie.read(path: job.outputPath).tracks.first(where: \.isVideo)?.samples.count ?? 0
    }

    // MARK: Re-encoding the edges

    /// Starts an encoder for every encode part and feeds it all its frames; they then encode
    /// at the same time (on their own threads) while the caller goes on.
    private func startEncoders(work: Work) throws -> [Int: RunningPart] {
        guard let lengthSize = input.lengthSize, plan.encodes else { return [:] }
        let caps = try Caps(input.index.videoCaps)
        var used = H264ParameterSets(avcC: input.avcC ?? []).map(\.usedIDs) ?? []
        var running: [Int: RunningPart] = [:]
        let frames = input.index.video
        for (partIndex, part) in plan.parts.enumerated() {
            guard case .encode(let feed, let keep) = part else { continue }
            let id = H264ParameterSets.freeID(avoiding: used)
            used.insert(id)
            let encoder = try FrameEncoder(
                codec: .h264, inputCaps: caps, keep: keep, parameterSetID: id, effort: .edges, control: control
            )
            for index in feed {
                try control.checkCancelled()
                work.done += 1
                report(work)
                let frame = frames[index]
                let bytes = try input.videoSample(at: index)
                // Frames shown before the cut that no other frame refers to need no decoding.
                if frame.pts < keep.lowerBound, AVCSamples.isDisposable(bytes, lengthSize: lengthSize) { continue }
                guard let buffer = Buffer(bytes: bytes) else { throw CamrecError.failed("out of memory") }
                buffer.pts = UInt64(max(0, frame.pts))
                buffer.dts = UInt64(max(0, frame.dts))
                buffer.duration = frame.duration > 0 ? UInt64(frame.duration) : nil
                buffer.isKeyframe = input.video.samples[index].isSync
                try encoder.push(buffer)
            }
            encoder.finish()
            running[partIndex] = RunningPart(encoder: encoder, keptPTS: part.keptPTS(of: frames))
        }
        return running
    }

    /// Waits for the encoders and fills in their frames (length-prefixed, sync when IDR),
    /// and the sample entry's `avcC` with their parameter sets added.
    private func complete(_ track: inout OutputTrack, running: [Int: RunningPart], work: Work) throws {
        guard !running.isEmpty, let lengthSize = input.lengthSize else { return }
        var extra = H264ParameterSets()
        var position = 0
        for (partIndex, part) in plan.parts.enumerated() {
            if case .copy(let range) = part {
                position += range.count
                continue
            }
            guard let running = running[partIndex] else { throw CamrecError.failed("a re-encoded part is missing") }
            let buffers = try running.encoder.remaining()
            work.done += buffers.count
            report(work)
            guard buffers.count == running.keptPTS.count else {
                throw CamrecError.failed("the re-encoder returned \(buffers.count) of \(running.keptPTS.count) frames")
            }
            for buffer in buffers {
                guard let converted = AVCSamples.sample(fromAnnexB: buffer.bytes, lengthSize: lengthSize) else {
                    throw CamrecError.failed("a re-encoded frame is too large for the input's NAL length field")
                }
                track.samples[position].source = .bytes(converted.sample)
                track.samples[position].isSync = converted.sample.withUnsafeBytes {
                    H264Bitstream.isIDR($0, lengthSize: lengthSize)
                }
                extra.sequenceSets += converted.sets.sequenceSets.filter { !extra.sequenceSets.contains($0) }
                extra.pictureSets += converted.sets.pictureSets.filter { !extra.pictureSets.contains($0) }
                position += 1
            }
        }
        guard let avcC = input.avcC, let merged = AVCSamples.merging(extra, into: avcC),
              let entry = SampleEntry.replacingChild("avcC", with: merged, in: track.sampleEntry)
        else { throw CamrecError.failed("cannot combine the re-encoded frames' parameter sets with the input's") }
        track.sampleEntry = entry
    }

    private func report(_ work: Work) {
        let total = plan.endPTS - plan.firstPTS
        control.report(TrimProgress(
            phase: .writing, fraction: Double(work.done) / Double(max(1, work.total)), totalSeconds: Double(total) / 1e9
        ))
    }

    // MARK: Tracks

    /// The video track in output order: copied frames from the file, re-encoded ones pending.
    private func videoTrack(running: [Int: RunningPart]) throws -> OutputTrack {
        let samples = input.video.samples
        let frames = input.index.video
        let framesByPTS = FramesByPTS(frames, in: plan.readFrom...plan.readThrough)
        guard let first = framesByPTS.index(of: plan.firstPTS) else { throw CamrecError.failed("the first frame is not in the input") }
        let origin = samples[first].presentationTime
        // Re-encoded frames have no reordering: their DTS run as far behind their PTS as the
        // copied frames' do, so that DTS keep rising across the joins.
        let reorderDelay = plan.parts.lazy.compactMap { part -> Int64? in
            if case .copy(let range) = part { Int64(max(0, samples[range.lowerBound].compositionOffset)) } else { nil }
        }.first ?? 0
        var entries: [(source: SampleSource, pts: Int64, dts: Int64, duration: Int64, isSync: Bool)] = []
        var lastDTS = Int64.min
        func append(_ source: SampleSource, pts: Int64, dts: Int64, duration: UInt32, isSync: Bool) {
            let decodeTime = dts > lastDTS ? dts : lastDTS + 1
            lastDTS = decodeTime
            entries.append((source, pts - origin, decodeTime, Int64(duration), isSync))
        }
        for (partIndex, part) in plan.parts.enumerated() {
            switch part {
            case .copy(let range):
                for index in range {
                    let sample = samples[index]
                    append(.file(offset: sample.offset, size: sample.size), pts: sample.presentationTime,
                           dts: sample.decodeTime - origin, duration: sample.duration, isSync: sample.isSync)
                }
            case .encode:
                guard let part = running[partIndex] else { throw CamrecError.failed("a re-encoded part is missing") }
                for pts in part.keptPTS {
                    guard let index = framesByPTS.index(of: pts) else { throw CamrecError.failed("a re-encoded frame has no source") }
                    let sample = samples[index]
                    append(.pending, pts: sample.presentationTime, dts: sample.presentationTime - origin - reorderDelay,
                           duration: sample.duration, isSync: false)
                }
            }
        }
        // Decoding starts at 0; the edit list hides the B-frame delay so the first frame shows at 0.
        let shift = -(entries.first?.dts ?? 0)
        var output: [OutputSample] = []
        output.reserveCapacity(entries.count)
        var end: Int64 = 0
        for (position, item) in entries.enumerated() {
            let next = position + 1 < entries.count ? entries[position + 1].dts : item.dts + item.duration
            output.append(OutputSample(
                source: item.source, duration: UInt32(clamping: next - item.dts),
                compositionOffset: Int32(clamping: item.pts - item.dts), isSync: item.isSync
            ))
            end = max(end, item.pts + item.duration)
        }
        let length = UInt64(max(0, end)) * UInt64(input.movie.timescale) / UInt64(input.video.timescale)
        return OutputTrack(
            template: input.video, edits: [Edit(segmentDuration: length, mediaTime: shift)], samples: output
        )
    }

    /// The audio packets from the first one starting at the first frame (within a
    /// millisecond) up to the end of the last frame, as one run, delayed by an empty edit
    /// when it starts after the video.
    private func audioTrack() -> OutputTrack? {
        guard let audio = input.audio else { return nil }
        let index = input.index
        let videoFirst = plan.firstPTS - index.presentationOffset
        let videoEnd = plan.endPTS - index.presentationOffset
        let shown = index.audio.map { $0.pts - index.audioPresentationOffset }
        guard let first = shown.firstIndex(where: { $0 >= videoFirst - 1_000_000 }), shown[first] < videoEnd else {
            return nil
        }
        let last = shown[first...].lastIndex { $0 < videoEnd } ?? first
        let samples = audio.samples[first...last].map { sample in
            OutputSample(
                source: .file(offset: sample.offset, size: sample.size), duration: sample.duration,
                compositionOffset: sample.compositionOffset, isSync: sample.isSync
            )
        }
        let movieScale = Int64(input.movie.timescale)
        let mediaLength = samples.reduce(Int64(0)) { $0 + Int64($1.duration) }
        var edits: [Edit] = []
        let delay = (shown[first] - videoFirst) * movieScale / 1_000_000_000
        if delay > 0 { edits.append(Edit(segmentDuration: UInt64(delay), mediaTime: -1)) }
        edits.append(Edit(
            segmentDuration: UInt64(mediaLength * movieScale / Int64(audio.timescale)),
            mediaTime: Int64(max(0, audio.samples[first].compositionOffset))
        ))
        return OutputTrack(template: audio, edits: edits, samples: samples)
    }
}

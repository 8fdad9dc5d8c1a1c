import CamrecCore
import FoundationEssentials
import GStreamer
import MP4
import Matroska
import MediaValues

/// Cuts the start and/or end of a movie (see docs/trim.md), in stages: open the input
/// (``TrimInput``), resolve the times (``CutTimes``), plan the cut (``PlannedCut``), write
/// a temporary file (the input's ``TrimWriter``, on an ``OutputTimeline``), then check it
/// and publish it (rename it into place).
public enum Trimmer {
    /// Runs a trim. Blocks the calling thread (run it off the Swift concurrency pool).
    ///
    /// - Parameter control: lets another thread cancel the trim (a signal) and watch its
    ///   progress; bounds every wait by ``TrimControl/stallTimeout``.
    /// - Throws: ``CamrecError`` with a one-line message; the input is never modified and no
    ///   output is left behind on failure, on a stall or on cancellation.
    public static func run(_ request: TrimRequest, control: TrimControl = TrimControl()) throws(CamrecError) -> TrimResult {
        let name = PathName.last(request.input)
        do {
            return try trim(request, name: name, control: control)
        } catch where error.kind == .stalled {
            throw CamrecError(.stalled, "trimming \(name) failed: \(error.message); nothing was written")
        }
    }

    private static func trim(_ asked: TrimRequest, name: String, control: TrimControl) throws(CamrecError) -> TrimResult {
        var request = asked
        try request.validate()
        let inputContainer = try MediaContainer.identify(path: request.input)
        try refuseIfBeingWritten(request.input)
        let output = try TrimOutput.prepare(for: request, inputContainer: inputContainer)
        control.track(temporaryPath: output.temporaryPath)
        try control.checkCancelled()
        var input = try openInput(request, container: inputContainer, outputContainer: output.container, control: control)
        var notes: [String] = []
        let firstFrame = (input.index.video.map(\.pts).min() ?? 0) - input.index.presentationOffset
        // When the input's first frame was captured (camrec's movies hold it), read before
        // anything is written (a trim in place replaces the input).
        let captured = capturedTime(of: request.input, container: inputContainer)
        if let counted = CutTimes.countedFromFirstFrame(request, firstFrame: firstFrame, name: name) {
            request = counted.request
            notes.append(counted.note)
            input = try openInput(request, container: inputContainer, outputContainer: output.container, control: control)
        }
        let times = try CutTimes.resolve(request, length: input.index.videoEnd, name: name)
        notes += times.notes
        var cut = try PlannedCut.make(index: input.index, times: times, mode: request.mode, name: name)
        try checkWritable(cut, by: input, to: output, name: name)
        try control.checkCancelled()
        try output.checkWritable()
        do {
            // The output's own capture time: its first frame's, from the input's. An MP4's key
            // is its first frame's time; Matroska's DateUTC that of its timestamp 0 (its index
            // may hold only the frames near the cut).
            let origin = inputContainer == .matroska ? 0 : firstFrame
            func firstCaptured(_ cut: PlannedCut) -> CaptureTimeStamp? {
                captured?.adding(milliseconds: (cut.plan.firstPTS - input.index.presentationOffset - origin) / 1_000_000)
            }
            var writer = input.writer(for: job(cut, output: output, control: control, captured: firstCaptured(cut)))
            var written: WrittenMovie
            do {
                written = try writer.write()
            } catch let refusal as VideoEncoding.Unavailable where cut.plan.mode == .accurate {
                // The encoder refused the decoded format (never converted to another bit
                // depth or chroma): cut at keyframes instead, and say why.
                cut = try cut.fallingBackToKeyframes(index: input.index, times: times, because: refusal.reason)
                writer = input.writer(for: job(cut, output: output, control: control, captured: firstCaptured(cut)))
                written = try writer.write()
            }
            if output.isWebM { try WebMDocType.mark(output.temporaryPath) }
            try check(writer, wrote: cut, of: input.index, to: output, control: control)
            if let stamp = firstCaptured(cut), output.container == .mp4 || output.container == .mov {
                try? stamp.write(into: output.temporaryPath)
            }
            try publish(output, of: request, control: control)
            var made = result(of: cut, from: input, to: output, request: request, written: written)
            made.warnings = notes + made.warnings
            return made
        } catch {
            output.discard()
            throw failure(error, trimming: name, to: output, control: control)
        }
    }

    // MARK: The stages

    /// The writer's job for `cut`.
    static func job(_ cut: PlannedCut, output: TrimOutput, control: TrimControl, captured: CaptureTimeStamp? = nil) -> TrimJob {
        TrimJob(
            plan: cut.plan, codec: cut.codec, encoding: cut.encoding, outputPath: output.temporaryPath,
            outputContainer: output.container, control: control, capturedMilliseconds: captured?.unixMilliseconds
        )
    }

    /// When the first frame of the movie at `path` was captured, as it says: an MP4's or
    /// MOV's `com.apple.quicktime.creationdate`, or Matroska's `DateUTC` (written by camrec
    /// to the millisecond; no zone: UTC).
    static func capturedTime(of path: String, container: MediaContainer) -> CaptureTimeStamp? {
        switch container {
        case .mp4, .mov: return CaptureTimeStamp.read(path: path)
        case .matroska:
            guard let date = (try? MatroskaHead.read(path: path))?.dateUTC else { return nil }
            return CaptureTimeStamp(unixMilliseconds: date / 1_000_000 + 978_307_200_000, utcOffsetSeconds: 0)
        default: return nil
        }
    }

    /// Refuses a cut whose video GStreamer's muxer cannot write to the output's container
    /// (camrec's own MP4 writer copies any sample description).
    private static func checkWritable(
        _ cut: PlannedCut, by input: any TrimInput, to output: TrimOutput, name: String
    ) throws(CamrecError) {
        if output.isWebM { try WebMDocType.checkHoldable(input.index, codec: cut.encoding?.codec ?? cut.codec, name: name) }
        guard input is GStreamerInput else { return }
        let codec = cut.encoding?.codec ?? cut.codec
        let caps = codec == cut.codec ? try? Caps(input.index.videoCaps) : try? Caps(codec.readerCaps ?? codec.mediaType)
        let accepted = caps.map { MuxerSupport.accepts(output.container, .video, caps: $0) }
            ?? MuxerSupport.accepts(output.container, .video, mediaType: codec.mediaType)
        guard !accepted else { return }
        let other = output.container == .matroska ? "" : " write .mkv (Matroska takes the most codecs), or"
        throw .invalidInput(
            "cannot trim \(name) to .\(output.container.fileExtension): \(output.container.muxerFactory) cannot write its"
                + " video codec (\(codec.displayName), \(input.index.videoMediaType));\(other) use --mode reencode"
                + " for H.264"
        )
    }

    /// Opens the input the cheapest way the trim allows. A plain MP4 (or MOV) written as the
    /// same container: its sample tables, and camrec's own writer. Everything else
    /// (Matroska, fragmented movies, a change of container, a full re-encode) goes through
    /// GStreamer's demuxers, which index only the part of the input the cut needs when both
    /// times count from the start (negative times need the whole video's length); a Matroska
    /// input's index comes from its block headers (the Cues lead to the cut), with any times.
    static func openInput(
        _ request: TrimRequest, container: MediaContainer, outputContainer: MediaContainer, control: TrimControl
    ) throws(CamrecError) -> any TrimInput {
        if request.mode != .reencode, outputContainer == container,
           let mp4 = MP4Input.open(path: request.input, container: container, control: control) {
            return mp4
        }
        if container == .matroska, let opened = try GStreamerInput.openMatroska(
            path: request.input, start: request.start, end: request.end, control: control
        ) {
            return opened.input
        }
        var window: (start: Int64, end: Int64)?
        if let start = request.start, let end = request.end, !start.isNegative, !end.isNegative {
            window = (start.nanoseconds, end.nanoseconds)
        }
        return try GStreamerInput.open(path: request.input, window: window, control: control)
    }

    /// Checks the written file: it must hold exactly the planned frames, read back
    /// independently of the writer, and decode to them (``DecodedOutputCheck``).
    static func check(
        _ writer: any TrimWriter, wrote cut: PlannedCut, of index: FrameIndex, to output: TrimOutput, control: TrimControl
    ) throws {
        let plan = cut.plan
        let written = try writer.countWrittenFrames()
        guard written == plan.frameCount else {
            throw CamrecError.failed(
                "the trimmed file has \(written) video frames instead of \(plan.frameCount); nothing was written"
            )
        }
        let timeline = OutputTimeline(plan: plan, index: index, minimumDecodeStep: 1_000_000)
        try DecodedOutputCheck(timeline: timeline)
            .verify(
                path: output.temporaryPath, container: output.container, codec: cut.encoding?.codec ?? cut.codec,
                control: control
            )
    }

    /// Refuses an input another process has open for writing (a recording in progress,
    /// `NAME.partial.mp4`): a trim of it would be short, and `--in-place` would destroy it.
    static func refuseIfBeingWritten(_ input: String) throws(CamrecError) {
        guard let writer = OpenFiles.writers(of: input).first else { return }
        throw CamrecError(
            .cannotCreateOutput,
            "\(input) is open for writing in process \(writer) (a recording still running?): trim it once that"
                + " process has ended; nothing was written"
        )
    }

    /// Flushes the checked temporary file and renames it into place (unless the trim was
    /// cancelled first), keeping the input's permissions when it replaces the input.
    private static func publish(_ output: TrimOutput, of request: TrimRequest, control: TrimControl) throws(CamrecError) {
        try control.checkCancelled()
        // A writer may have opened the input while it was being trimmed.
        try refuseIfBeingWritten(request.input)
        try output.commit(keepingModeOf: request.destination == .inPlace ? request.input : nil, control: control)
    }

    /// What was made, with times on the input's presentation timeline.
    static func result(
        of cut: PlannedCut, from input: any TrimInput, to output: TrimOutput, request: TrimRequest, written: WrittenMovie
    ) -> TrimResult {
        let plan = cut.plan
        let bytes = OutputFile.size(of: output.finalPath)
        let offset = input.index.presentationOffset
        return TrimResult(
            mode: plan.mode, requestedMode: request.mode, fallbackReason: cut.fallbackReason, output: output.finalPath,
            bytes: bytes, firstFrameTime: seconds(plan.firstPTS - offset), lastFrameTime: seconds(plan.lastPTS - offset),
            duration: seconds(plan.endPTS - plan.firstPTS), frames: plan.frameCount, framesCopied: plan.framesCopied,
            framesReencoded: plan.framesReencoded, audioPackets: written.audioPackets, tracks: written.tracks,
            warnings: written.warnings
        )
    }

    /// A failure while writing or publishing, in the trim's words: a cancellation says why
    /// the trim stopped (a pipeline torn down by it fails in its own way), a full disk says
    /// so, and anything else names the input.
    static func failure(
        _ error: any Error, trimming name: String, to output: TrimOutput, control: TrimControl
    ) -> CamrecError {
        if let reason = control.cancelReason, (error as? CamrecError)?.kind != .interrupted {
            return .interrupted(by: reason)
        }
        switch error {
        case let error as CamrecError:
            return error.kind == .failure ? .failed("trimming \(name) failed: \(error.message)") : error
        case let error as MP4Error:
            if error.isNoSpace {
                return CamrecError(.diskFull, "disk full while writing \(output.finalPath): free some space and trim again")
            }
            return .failed("trimming \(name) failed: \(error.message)")
        case let error as GStreamerError:
            let mapped = FailureMapping.camrecError(for: error, camera: nil)
            return mapped.kind == .failure ? .failed("trimming \(name) failed: \(error.description)") : mapped
        default:
            return .failed("trimming \(name) failed: \(error)")
        }
    }

    /// Nanoseconds as seconds, rounded to the millisecond.
    static func seconds(_ nanoseconds: Int64) -> Double {
        (Double(nanoseconds) / 1_000_000).rounded() / 1000
    }
}

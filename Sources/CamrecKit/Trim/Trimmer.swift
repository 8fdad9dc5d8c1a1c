import Foundation
import GStreamer
import MP4

/// Cuts the start and/or end of a movie (see docs/trim.md): indexes it, plans the cut,
/// writes a temporary file, checks it, and renames it into place.
public enum Trimmer {
    /// Runs a trim. Blocks the calling thread (run it off the Swift concurrency pool).
    ///
    /// - Parameter control: lets another thread cancel the trim (a signal) and watch its
    ///   progress; bounds every wait by ``TrimControl/stallTimeout``.
    /// - Throws: ``CamrecError`` with a one-line message; the input is never modified and no
    ///   output is left behind on failure, on a stall or on cancellation.
    public static func run(_ request: TrimRequest, control: TrimControl = TrimControl()) throws(CamrecError) -> TrimResult {
        let name = (request.input as NSString).lastPathComponent
        do {
            return try trim(request, name: name, control: control)
        } catch where error.kind == .stalled {
            throw CamrecError(.stalled, "trimming \(name) failed: \(error.message); nothing was written")
        }
    }

    private static func trim(_ request: TrimRequest, name: String, control: TrimControl) throws(CamrecError) -> TrimResult {
        try request.validate()
        let inputContainer = try MediaContainer.identify(path: request.input)
        let output = try TrimOutput.prepare(for: request, inputContainer: inputContainer)
        control.track(temporaryPath: output.temporaryPath)
        try control.checkCancelled()
        let input = try openInput(request, container: inputContainer, outputContainer: output.container, control: control)
        let index = input.index
        let codec = try VideoCodec.forIndex(index, name: name)
        let (start, end) = try resolveTimes(request, length: index.videoEnd, name: name)
        // Half a millisecond of slack: Matroska stores times in whole milliseconds, so a frame
        // shown at 1 s may read 1.000 while the movie's end reads 4.000333 s.
        let slack: Int64 = 500_000
        let bufferStart = start + index.presentationOffset - slack
        let bufferEnd = end + index.presentationOffset - slack
        let planner = SmartCutPlanner(frames: index.video)
        var plan = try planner.plan(start: bufferStart, end: bufferEnd, mode: request.mode)
        var fallbackReason: String?
        if !codec.smartCut, plan.mode == .accurate, plan.encodes {
            // All-intra inputs (MJPEG) cut accurately by copying alone; others need a re-encode
            // camrec cannot do in the same codec here.
            plan = try planner.plan(start: bufferStart, end: bufferEnd, mode: .keyframe)
            fallbackReason = "\(codec.displayName) cannot be re-encoded frame-accurately here: cut at keyframes"
                + " (use --mode reencode to re-encode to H.264)"
        }
        try control.checkCancelled()
        try output.checkWritable()
        do {
            let job = TrimJob(
                plan: plan, codec: codec, outputPath: output.temporaryPath, outputContainer: output.container,
                control: control
            )
            let writer = input.writer(for: job)
            let audioPackets = try writer.write()
            let written = try writer.countWrittenFrames()
            guard written == plan.frameCount else {
                throw CamrecError.failed(
                    "the trimmed file has \(written) video frames instead of \(plan.frameCount); nothing was written"
                )
            }
            try control.checkCancelled()
            try output.commit(keepingModeOf: request.destination == .inPlace ? request.input : nil, control: control)
            let bytes = (try? FileManager.default.attributesOfItem(atPath: output.finalPath)[.size] as? NSNumber)?
                .int64Value ?? 0
            let offset = index.presentationOffset
            return TrimResult(
                mode: plan.mode, requestedMode: request.mode, fallbackReason: fallbackReason, output: output.finalPath,
                bytes: bytes, firstFrameTime: seconds(plan.firstPTS - offset), lastFrameTime: seconds(plan.lastPTS - offset),
                duration: seconds(plan.endPTS - plan.firstPTS), frames: plan.frameCount, framesCopied: plan.framesCopied,
                framesReencoded: plan.framesReencoded, audioPackets: audioPackets
            )
        } catch let error as CamrecError {
            output.discard()
            if error.kind != .interrupted, let reason = control.cancelReason {
                // A pipeline torn down by the cancellation fails in its own way: say why it stopped.
                throw CamrecError.interrupted(by: reason)
            }
            throw error.kind == .failure ? CamrecError.failed("trimming \(name) failed: \(error.message)") : error
        } catch let error as MP4Error {
            output.discard()
            if let reason = control.cancelReason { throw CamrecError.interrupted(by: reason) }
            if error.isNoSpace {
                throw CamrecError(.diskFull, "disk full while writing \(output.finalPath): free some space and trim again")
            }
            throw .failed("trimming \(name) failed: \(error.message)")
        } catch let error as GStreamerError {
            output.discard()
            if let reason = control.cancelReason { throw CamrecError.interrupted(by: reason) }
            let mapped = FailureMapping.camrecError(for: error, camera: nil)
            throw mapped.kind == .failure ? .failed("trimming \(name) failed: \(error.description)") : mapped
        } catch {
            output.discard()
            if let reason = control.cancelReason { throw CamrecError.interrupted(by: reason) }
            throw .failed("trimming \(name) failed: \(error)")
        }
    }

    /// The input, read the cheapest way the trim allows. A plain MP4 (or MOV) written as the
    /// same container: its sample tables, and camrec's own writer. Everything else
    /// (Matroska, fragmented movies, a change of container, a full re-encode) goes through
    /// GStreamer's demuxers, which index only the part of the input the cut needs when both
    /// times count from the start (negative times need the whole video's length).
    static func openInput(
        _ request: TrimRequest, container: MediaContainer, outputContainer: MediaContainer, control: TrimControl
    ) throws(CamrecError) -> any TrimInput {
        if request.mode != .reencode, outputContainer == container,
           let mp4 = MP4Input.open(path: request.input, container: container) {
            return mp4
        }
        var window: (start: Int64, end: Int64)?
        if let start = request.start, let end = request.end, !start.isNegative, !end.isNegative {
            window = (start.nanoseconds, end.nanoseconds)
        }
        return try GStreamerInput.open(path: request.input, window: window, control: control)
    }

    /// Start and end on the presentation timeline, negative values counted from the end.
    static func resolveTimes(_ request: TrimRequest, length: Int64, name: String) throws(CamrecError) -> (start: Int64, end: Int64) {
        func resolve(_ time: TimeSpec?, default value: Int64) -> Int64 {
            guard let time else { return value }
            return time.isNegative ? length + time.nanoseconds : time.nanoseconds
        }
        let start = max(0, resolve(request.start, default: 0))
        let end = min(length, resolve(request.end, default: length))
        let lengthText = String(format: "%.3fs", seconds(length))
        if let requested = request.start, start >= length {
            throw .invalidInput("--start \(requested) is past the end of \(name) (its video lasts \(lengthText))")
        }
        if end <= start {
            let startText = request.start.map { "--start \($0)" } ?? "the start"
            let endText = request.end.map { "--end \($0)" } ?? "the end"
            throw .invalidInput(
                "\(startText) is not before \(endText) in \(name) (its video lasts \(lengthText))"
            )
        }
        return (start, end)
    }

    static func seconds(_ nanoseconds: Int64) -> Double {
        (Double(nanoseconds) / 1_000_000).rounded() / 1000
    }
}

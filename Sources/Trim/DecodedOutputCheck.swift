import CamrecCore
import GStreamer
import MP4
import MediaValues
import Synchronization

/// The last check before a trim's output is published (``Trimmer``): its video is decoded
/// by GStreamer's `decodebin` (not by the path that wrote it), and the frames that come out
/// must be the frames the plan asked for: as many, each once, at the planned presentation
/// times, and all in one picture format (size, pixel format and colour range never change
/// at a join).
///
/// A short output is decoded whole; a long one around its start, its end and every join
/// between a copied and a re-encoded part (``windows``), where a cut goes wrong: what lies
/// between is copied untouched and counted by the demuxed frame count. A frame missing,
/// hidden by the decoder, doubled or shown at another time, and a head or tail in another
/// colour range, fail the trim: nothing is published and an input trimmed in place stays.
struct DecodedOutputCheck: Sendable, Equatable {
    /// The planned frames' output times in presentation order (nanoseconds; the first is 0).
    let expected: [Int64]
    /// The output times decoded, in order, not overlapping: each as positions in ``expected``.
    let windows: [ClosedRange<Int>]

    /// Frames decoded on each side of a join, and at the start and end.
    static let framesAroundJoins = 30

    /// The check of a trim laid out as `timeline` (nanoseconds).
    init(timeline: OutputTimeline) {
        let sorted = timeline.frames.map(\.pts).sorted()
        // Where each part after the first begins, in presentation order.
        let joins = timeline.parts.dropFirst().filter { !$0.isEmpty }.map { range in
            let first = timeline.frames[range].map(\.pts).min() ?? 0
            return sorted.firstIndex { $0 >= first } ?? sorted.count - 1
        }
        self.init(expected: sorted, joins: joins)
    }

    /// The check of an output whose frames lie at `expected` (output times in presentation
    /// order), with parts joined before the frames at positions `joins`.
    init(expected: [Int64], joins: [Int]) {
        self.expected = expected
        guard !expected.isEmpty else {
            windows = []
            return
        }
        let last = expected.count - 1
        let margin = Self.framesAroundJoins
        var wanted: [ClosedRange<Int>] = [0...min(last, margin), max(0, last - margin)...last]
        wanted += joins.map { max(0, $0 - margin)...min(last, $0 + margin) }
        var merged: [ClosedRange<Int>] = []
        for window in wanted.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let previous = merged.last, window.lowerBound <= previous.upperBound + 1 {
                merged[merged.count - 1] = previous.lowerBound...max(previous.upperBound, window.upperBound)
            } else {
                merged.append(window)
            }
        }
        windows = merged
    }

    /// How far a decoded frame's time may lie from the planned one: container time scales
    /// round (Matroska to the millisecond), but never by half a frame.
    var tolerance: Int64 {
        let gaps = zip(expected, expected.dropFirst()).map { $1 - $0 }.filter { $0 > 0 }
        return min(2_000_000, (gaps.min() ?? 4_000_000) / 2)
    }

    /// Decodes the output at `path` (a `container` file of `codec` video) and compares it
    /// with the plan.
    ///
    /// - Throws: a ``CamrecError`` (failure) saying what differs; `stalled` or
    ///   `interrupted` as `control` decides.
    func verify(path: String, container: MediaContainer, codec: TrimCodec, control: TrimControl) throws {
        // MPEG-4 Part 2 is decoded as players do, by libav's decoder alone: behind
        // mpeg4videoparse (decodebin's choice) it shows frames that ffmpeg, VLC and browsers
        // never show (a reference frame before a VOL that switches to low delay).
        let decoder = codec.edgeEncoder == .mpeg4 ? codec.decoder : nil
        var offset: Int64?
        var format: DecodedFrames.Format?
        for window in windows {
            // Window bounds halfway between frames: rounding cannot move a frame across one.
            let lower = window.lowerBound == 0 ? nil : (expected[window.lowerBound - 1] + expected[window.lowerBound]) / 2
            let upper = window.upperBound == expected.count - 1
                ? nil : (expected[window.upperBound] + expected[window.upperBound + 1]) / 2
            let decoded = try DecodedFrames.read(
                path: path, container: container, decoder: decoder, from: lower.map { max(0, $0 + (offset ?? 0)) },
                until: upper.map { $0 + (offset ?? 0) }, control: control
            )
            // The first window starts at the output's start: its first frame is time 0.
            if offset == nil { offset = decoded.frames.first?.time ?? 0 }
            let base = offset ?? 0
            let times = decoded.frames.map { $0.time - base }.filter { time in
                (lower.map { time >= $0 } ?? true) && (upper.map { time < $0 } ?? true)
            }
            let planned = Array(expected[window])
            try compare(times, with: planned)
            for frame in decoded.frames {
                guard let known = format else {
                    format = frame.format
                    continue
                }
                if frame.format != known {
                    throw CamrecError.failed(
                        "the trimmed video changes from \(known) to \(frame.format) at"
                            + " \(Self.seconds(frame.time - base)); nothing was written"
                    )
                }
            }
        }
        if codec == .h264, container != .matroska { try verifyRanges(path: path) }
    }

    /// An MP4/MOV's H.264 parameter sets (the source's and the re-encoded parts', side by
    /// side in its sample description) must declare one colour range: GStreamer's decoder
    /// reports the first one's for every frame, so a change would not show when decoding.
    private func verifyRanges(path: String) throws {
        guard let movie = try? Movie.read(path: path), let video = movie.tracks.first(where: \.isVideo),
              let avcC = SampleEntry.child("avcC", of: video.sampleEntry),
              let sets = H264ParameterSets(avcC: avcC)
        else { return }
        let ranges = Set(sets.sequenceSets.compactMap { H264SequenceParameterSet(unit: $0)?.isFullRange })
        guard ranges.count <= 1 else {
            throw CamrecError.failed(
                "the trimmed video's parts declare different colour ranges (full and limited); nothing was written"
            )
        }
    }

    /// Compares decoded frame times with the planned ones (both in presentation order).
    private func compare(_ times: [Int64], with planned: [Int64]) throws {
        let span = planned.isEmpty ? "" : " between \(Self.seconds(planned[0])) and \(Self.seconds(planned[planned.count - 1]))"
        for (previous, time) in zip(times, times.dropFirst()) where time <= previous {
            throw CamrecError.failed(
                "the trimmed video shows two frames at \(Self.seconds(time)) (decoded); nothing was written"
            )
        }
        guard times.count == planned.count else {
            throw CamrecError.failed(
                "the trimmed video decodes to \(times.count) frames where \(planned.count) were planned\(span);"
                    + " nothing was written"
            )
        }
        let tolerance = tolerance
        for (time, plannedTime) in zip(times, planned) where abs(time - plannedTime) > tolerance {
            throw CamrecError.failed(
                "the trimmed video shows a frame at \(Self.seconds(time)) where one at \(Self.seconds(plannedTime))"
                    + " was planned; nothing was written"
            )
        }
    }

    /// "1.234 s"
    static func seconds(_ nanoseconds: Int64) -> String {
        let milliseconds = (Double(nanoseconds) / 1_000_000).rounded()
        return String(milliseconds / 1000) + " s"
    }
}

/// The decoded video frames of a file over a time range: their presentation times and
/// formats, from `filesrc ! decodebin` with a probe on the video pad (other pads go to
/// fakesinks).
struct DecodedFrames {
    /// What a frame looks like as far as a join must not change it.
    struct Format: Sendable, Equatable, CustomStringConvertible {
        var pixelFormat: String
        var width: Int
        var height: Int
        /// True for full range (0–255), false for limited (16–235) or unknown.
        var fullRange: Bool

        init(caps: Caps?) {
            pixelFormat = caps?.string("format") ?? "?"
            width = caps?.int("width") ?? 0
            height = caps?.int("height") ?? 0
            fullRange = Self.isFullRange(caps?.string("colorimetry"))
        }

        /// Whether a GStreamer colorimetry ("bt601", "sRGB", "1:4:0:0") is full range.
        static func isFullRange(_ colorimetry: String?) -> Bool {
            guard let colorimetry else { return false }
            if colorimetry == "sRGB" { return true }
            return colorimetry.split(separator: ":").first == "1"
        }

        var description: String {
            "\(pixelFormat) \(width)x\(height) \(fullRange ? "full" : "limited") range"
        }
    }

    /// One decoded frame: its presentation time (stream time) and format.
    struct Frame: Sendable, Equatable {
        var time: Int64
        var format: Format
    }

    private struct State {
        var frames: [Frame] = []
        var format = Format(caps: nil)
        var segment: SegmentTimes?
        var passedEnd = false
        var linkedVideo = false
    }

    let frames: [Frame]

    /// Decodes `path` from the keyframe at or before `start` (nil: the beginning) until the
    /// first frame at or after `end` (nil: the end), with `decoder` straight after the
    /// demuxer (nil: `decodebin`, which picks a parser and a decoder).
    static func read(
        path: String, container: MediaContainer, decoder decoderName: String?, from start: Int64?, until end: Int64?,
        control: TrimControl
    ) throws -> DecodedFrames {
        let state = Mutex(State())
        let pipeline = try Pipeline(name: "trim-check")
        let source = try Element.make("filesrc", name: "source")
        try source.set("location", path)
        let videoSink = try Element.make("fakesink", name: "video-sink")
        try videoSink.set("sync", false)
        try pipeline.add(source)
        try pipeline.add(videoSink)
        // The first element after the file: the demuxer, whose video goes through a queue to
        // `decoder`; or decodebin, which links its first raw video pad itself.
        let opener: Element
        let videoInput: Pad?
        if let decoderName {
            opener = try Element.make(container.demuxer, name: "demuxer")
            let queue = try Element.make("queue", name: "video-queue")
            let decoder = try Element.make(decoderName, name: "decoder")
            for element in [opener, queue, decoder] { try pipeline.add(element) }
            try queue.link(decoder)
            try decoder.link(videoSink)
            videoInput = try queue.staticPad("sink")
        } else {
            opener = try Element.make("decodebin", name: "decoder")
            try pipeline.add(opener)
            videoInput = try videoSink.staticPad("sink")
        }
        try source.link(opener)
        // Matroska buffer times are presentation times; an MP4's go through its edit list.
        let usesSegmentTime = container != .matroska
        let probe = try videoSink.staticPad("sink").addProbe([.buffer, .downstreamEvent]) { info in
            if let event = info.event {
                if let caps = event.caps { state.withLock { $0.format = Format(caps: caps) } }
                if let segment = event.segment { state.withLock { $0.segment = segment.times } }
                return .pass
            }
            guard let buffer = info.buffer, let pts = buffer.pts else { return .pass }
            return state.withLock { state in
                guard !state.passedEnd else { return .drop }
                var time = Int64(pts)
                if usesSegmentTime, let segment = state.segment {
                    time = time - Int64(segment.start) + Int64(segment.time)
                }
                if let end, time >= end {
                    state.passedEnd = true
                    return .drop
                }
                state.frames.append(Frame(time: time, format: state.format))
                return .pass
            }
        }
        let token = opener.onPadAdded { pad in
            let mediaType = pad.capsNowOrQueried?.mediaType ?? ""
            let isVideo = decoderName == nil
                ? mediaType == "video/x-raw" : mediaType.hasPrefix("video/") || mediaType == "image/jpeg"
            let first = isVideo && state.withLock { state in
                defer { state.linkedVideo = true }
                return !state.linkedVideo
            }
            if first, let videoInput {
                try? pad.link(videoInput)
                return
            }
            // Other streams go to a fakesink behind an unbounded queue: a sink blocks its
            // streaming thread while it prerolls, and the demuxer's one thread must go on
            // feeding a decoder that shows its first frame only after a few (MPEG-4 Part 2
            // with B-frames straight after the demuxer, with sound beside it).
            guard let queue = try? Element.make("queue"), let sink = try? Element.make("fakesink") else { return }
            for property in ["max-size-buffers", "max-size-bytes", "max-size-time"] { try? queue.set(property, 0) }
            try? sink.set("sync", false)
            try? sink.set("async", false)
            guard (try? pipeline.add(queue)) != nil, (try? pipeline.add(sink)) != nil, (try? queue.link(sink)) != nil
            else { return }
            _ = sink.syncStateWithParent()
            _ = queue.syncStateWithParent()
            if let queuePad = try? queue.staticPad("sink") { try? pad.link(queuePad) }
        }
        defer {
            token.disconnect()
            probe.remove()
            _ = try? pipeline.setState(.null)
        }
        if let start, start > 0 {
            let errors = ErrorWatch(errorsOf: pipeline)
            defer { errors.stop() }
            try pipeline.setStateThrowingPostedError(.paused)
            try PipelineRunner.waitForPaused(
                pipeline, watch: control.watch("the check of the trimmed file (opening it)"), errors: errors)
            guard pipeline.seek(to: UInt64(start), flags: [.flush, .keyUnit, .snapBefore]) else {
                throw CamrecError.failed("the trimmed file cannot be positioned at \(DecodedOutputCheck.seconds(start))")
            }
        }
        try pipeline.setStateThrowingPostedError(.playing)
        guard let bus = pipeline.bus else { throw GStreamerError.unavailable("a bus for \(pipeline.name)") }
        var watch = control.watch("the check of the trimmed file (decoding it)")
        var seen = 0
        while !state.withLock(\.passedEnd) {
            if let message = bus.pop(timeoutNanoseconds: 50_000_000) {
                if case .endOfStream = message { break }
                if case .error(let failure) = message {
                    throw CamrecError.failed("the trimmed file does not decode: \(failure.message); nothing was written")
                }
            }
            let count = state.withLock(\.frames.count)
            if count != seen {
                seen = count
                watch.progressed()
            }
            try watch.check()
        }
        return DecodedFrames(frames: state.withLock(\.frames))
    }

}

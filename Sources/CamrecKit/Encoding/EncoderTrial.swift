import GStreamer

/// Whether an encoder proved to work.
public enum TrialOutcome: Sendable, Equatable {
    /// It encoded the test frames to its codec.
    case works
    /// It did not; `reason` is GStreamer's message (or what was missing), for people.
    case fails(reason: String)

    /// Whether it works.
    public var works: Bool { self == .works }

    /// The reason it failed, nil when it works.
    public var reason: String? {
        if case .fails(let reason) = self { return reason }
        return nil
    }
}

/// Proves an encoder works by encoding a few test frames before a recording relies on it. A
/// registered element is not a working device: vaapih264enc registers without a GPU and fails
/// at start, nvh264enc needs the driver's libraries, a V4L2 encoder its device node.
public enum EncoderTrial {
    /// The size and rate `camrec encoders` tries encoders at.
    public static let listingSize = FrameSize(width: 1280, height: 720)
    /// See `listingSize`.
    public static let listingRate = FrameRateValue(30)

    /// What an encoder is fed: 8-bit 4:2:0, I420 or NV12, whichever it takes (x264enc takes
    /// I420; vah264enc and many V4L2 encoders only NV12). A recording should put the same
    /// caps after its videoconvert, so that the encoder gets what its trial got.
    public static let encoderInputCaps = "video/x-raw,format={I420,NV12}"

    /// The trial pipeline: `frames` test frames of I420 at `size` and `rate`, converted to
    /// what `element` takes (`encoderInputCaps`), into `element` (pipeline syntax with its
    /// properties, e.g. "x264enc bitrate=2000"), out to an appsink that keeps them for
    /// `check` (`wait-on-eos=false`: end of stream is posted without waiting for anyone to
    /// pull them).
    public static func pipelineDescription(element: String, size: FrameSize, rate: FrameRateValue, frames: Int) -> String {
        "videotestsrc num-buffers=\(max(1, frames)) pattern=smpte"
            + " ! video/x-raw,format=I420,width=\(size.width),height=\(size.height),framerate=\(rate.fraction)"
            + " ! videoconvert ! \(encoderInputCaps)"
            + " ! \(element) ! appsink name=camrec_trial_sink sync=false wait-on-eos=false"
    }

    /// Encodes `frames` test frames with `element` and checks that encoded buffers of `codec`
    /// came out before end of stream, within `timeout`. Never throws: every failure is
    /// `.fails` with GStreamer's message. The pipeline is always taken down to NULL.
    public static func run(element: String, codec: VideoCodec, size: FrameSize, rate: FrameRateValue,
                           frames: Int = 5, timeout: Duration = .seconds(15)) -> TrialOutcome {
        let pipeline: Pipeline
        do {
            pipeline = try Pipeline.withBuiltIns(pipelineDescription(element: element, size: size, rate: rate, frames: frames))
        } catch {
            return .fails(reason: error.description)
        }
        defer { _ = try? pipeline.setState(.null) }
        guard let bus = pipeline.bus else { return .fails(reason: "GStreamer could not provide the pipeline's bus") }
        let sink: AppSink
        do {
            sink = try AppSink(pipeline.element(named: "camrec_trial_sink"))
        } catch {
            return .fails(reason: error.description)
        }
        do {
            try pipeline.setStateThrowingPostedError(.playing)
        } catch {
            // The element that failed posted why (vaapi: no device); that is the reason.
            if case .element(let failure) = error { return .fails(reason: reason(of: failure)) }
            return .fails(reason: "it failed to start (\(error.description))")
        }
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while true {
            let left = clock.now.duration(to: deadline)
            guard left > .zero, let message = bus.pop(timeoutNanoseconds: nanoseconds(left)) else {
                return .fails(reason: "it encoded nothing within \(timeout.components.seconds) s")
            }
            switch message {
            case .endOfStream:
                return check(sink, codec: codec)
            case .error(let failure):
                return .fails(reason: reason(of: failure))
            case .warning, .stateChanged, .qos, .application, .element, .other:
                continue
            }
        }
    }

    /// After end of stream: at least one encoded buffer, and every one of `codec`'s media type.
    private static func check(_ sink: AppSink, codec: VideoCodec) -> TrialOutcome {
        var count = 0
        while let sample = sink.pullSample(timeoutNanoseconds: 0) {
            let type = sample.caps?.mediaType ?? "no caps"
            guard type == codec.capsName else {
                return .fails(reason: "it produced \(type), not \(codec.capsName)")
            }
            if let size = sample.withBytes({ $0.count }), size > 0 { count += 1 }
        }
        return count > 0 ? .works : .fails(reason: "it produced no encoded frames")
    }

    /// GStreamer's message, and the debug text's own words when it has some: GStreamer's debug
    /// text is "file(line): function (): /element/path:" and then, on the next line, what the
    /// element added ("no VA display", "Cannot open /dev/video11"), which a vague message
    /// ("Could not initialize supporting library.") needs.
    static func reason(of failure: ElementFailure) -> String {
        let lines = failure.debug.split(separator: "\n").dropFirst().map { $0.filter { $0 != "\r" } }
        let detail = lines.joined(separator: " ").split(separator: " ").joined(separator: " ")
        if failure.message.isEmpty { return detail.isEmpty ? "\(failure.source.name) failed without a message" : detail }
        if detail.isEmpty || failure.message.contains(detail) { return failure.message }
        return "\(failure.message) (\(detail))"
    }

    private static func nanoseconds(_ duration: Duration) -> UInt64 {
        let (seconds, attoseconds) = duration.components
        return UInt64(max(0, seconds)) * 1_000_000_000 + UInt64(max(0, attoseconds / 1_000_000_000))
    }
}

import GStreamer

/// Times an encoder on test frames: how many frames a second it encodes here, now, with
/// whatever else the machine runs (`--quality auto`). The frames come as fast as it takes
/// them; the first `warmUp` outputs (the encoder's start) are not timed, and the trial ends
/// as soon as the pace is known: `frames` timed outputs, or the time they would take at
/// the pace needed, so a slow encoder costs no more than a fast one.
public enum EncoderPaceTrial {
    /// The pure part: the output times in, frames per second out.
    public struct Pace: Sendable, Equatable {
        /// Frames per second needed; past the time `frames` take at this pace, it is known
        /// that they are not reached.
        public let needed: Double
        /// Outputs timed.
        public let frames: Int
        /// Outputs not timed (the encoder's start).
        public let warmUp: Int
        private(set) var times: [Duration] = []

        public init(needed: Double, frames: Int = 20, warmUp: Int = 3) {
            self.needed = max(needed, 0.001)
            self.frames = max(2, frames)
            self.warmUp = max(0, warmUp)
        }

        /// Notes an output at `time`.
        public mutating func output(at time: Duration) {
            times.append(time)
        }

        /// The pace once known at `now`: after `frames` timed outputs, or when the time
        /// they would take at `needed` has passed since the first timed one. Nil before.
        public func framesPerSecond(at now: Duration) -> Double? {
            let timed = times.dropFirst(warmUp)
            guard let first = timed.first else { return nil }
            if timed.count >= frames + 1, let last = timed.last {
                return Self.rate(Double(timed.count - 1), over: last - first)
            }
            let allowed = Duration.seconds(Double(frames) / needed)
            guard now - first >= allowed else { return nil }
            return Self.rate(Double(timed.count - 1), over: now - first)
        }

        /// The pace so far at `now`, when the trial's time is up: 0 before two timed outputs.
        public func framesPerSecond(until now: Duration) -> Double {
            let timed = times.dropFirst(warmUp)
            guard timed.count >= 2, let first = timed.first else { return 0 }
            return Self.rate(Double(timed.count - 1), over: now - first)
        }

        /// The pace when the frames ran out (end of stream) before it was known: nil with
        /// fewer than two timed outputs.
        public func framesPerSecondAtEnd() -> Double? {
            let timed = times.dropFirst(warmUp)
            guard timed.count >= 2, let first = timed.first, let last = timed.last else { return nil }
            return Self.rate(Double(timed.count - 1), over: last - first)
        }

        private static func rate(_ count: Double, over span: Duration) -> Double {
            let seconds = Double(span.components.seconds) + Double(span.components.attoseconds) / 1e18
            return seconds > 0 ? count / seconds : .infinity
        }
    }

    /// The trial's pipeline: camrec's test pattern (moving, as `--device test` records it)
    /// at `size`, as fast as `element` takes it, into an appsink.
    public static func pipelineDescription(element: String, size: FrameSize, rate: FrameRateValue, frames: Int) -> String {
        "videotestsrc num-buffers=\(max(1, frames)) pattern=smpte horizontal-speed=4"
            + " ! video/x-raw,format=I420,width=\(size.width),height=\(size.height),framerate=\(rate.fraction)"
            + " ! videoconvert ! \(EncoderTrial.encoderInputCaps)"
            + " ! \(element) ! appsink name=camrec_pace_sink sync=false wait-on-eos=false"
    }

    /// Frames per second `element` encodes here at `size`; nil when it fails to run. An
    /// encoder that has not shown its pace within `timeout` (its start included) is too slow:
    /// its pace so far, 0 when it gave fewer than two timed frames. (A 10-s limit let a
    /// thread pool starved by a busy machine hold a recording's start for 30 s.) The
    /// pipeline is always taken down to NULL.
    public static func run(element: String, size: FrameSize, rate: FrameRateValue, needed: Double,
                           timeout: Duration = .seconds(2)) -> Double? {
        var pace = Pace(needed: needed)
        let description = pipelineDescription(element: element, size: size, rate: rate, frames: pace.warmUp + pace.frames + 1)
        guard let pipeline = try? Pipeline.withBuiltIns(description) else { return nil }
        defer { _ = try? pipeline.setState(.null) }
        guard let bus = pipeline.bus, let sink = try? AppSink(pipeline.element(named: "camrec_pace_sink")),
              (try? pipeline.setStateThrowingPostedError(.playing)) != nil else { return nil }
        let clock = ContinuousClock()
        let start = clock.now
        while true {
            let now = start.duration(to: clock.now)
            if let fps = pace.framesPerSecond(at: now) { return fps }
            guard now < timeout else { return pace.framesPerSecond(until: now) }
            if sink.pullSample(timeoutNanoseconds: 20_000_000) != nil {
                pace.output(at: start.duration(to: clock.now))
                continue
            }
            // No frame within 20 ms: an error or the end of the frames?
            while let message = bus.pop(timeoutNanoseconds: 0) {
                switch message {
                case .error: return nil
                case .endOfStream: return pace.framesPerSecondAtEnd()
                default: continue
                }
            }
        }
    }
}

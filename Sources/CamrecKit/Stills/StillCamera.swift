import FoundationEssentials
import GStreamer
import Synchronization

/// What `camrec still` takes.
public struct StillConfig: Sendable {
    /// Where frames come from.
    public var source: VideoSource
    /// The frame size the camera runs at.
    public var size: FrameSize
    /// The frame rate the camera runs at.
    public var rate: FrameRateValue
    /// How the photos are encoded.
    public var format: StillFormat
    /// Where the photo goes; with `count` > 1, a naming pattern.
    public var output: StillOutput
    /// How many photos to take.
    public var count: Int
    /// The time between photos of a series.
    public var interval: TimeSpec
    /// The longest wait for exposure to settle; zero takes the first frame.
    public var settle: TimeSpec
    /// Rotation, mirroring and overlays.
    public var picture: PictureSettings = .unchanged
    /// The camera and place the photos' EXIF names.
    public var tags = StillTags()

    public init(source: VideoSource, size: FrameSize, rate: FrameRateValue, format: StillFormat,
                output: StillOutput, count: Int, interval: TimeSpec, settle: TimeSpec) {
        self.source = source
        self.size = size
        self.rate = rate
        self.format = format
        self.output = output
        self.count = count
        self.interval = interval
        self.settle = settle
    }
}

/// Where `camrec still` writes.
public enum StillOutput: Sendable {
    /// One file (replaced only with `overwrite`).
    case file(path: String, overwrite: Bool)
    /// A series, named from a pattern; existing files are skipped, never replaced.
    case series(StillNaming)
}

/// Takes photos without recording a movie (`camrec still`): waits for the picture to
/// settle, then takes `count` stills `interval` apart.
public final class StillCamera: Sendable {
    private let config: StillConfig
    private let stopRequested = Mutex(false)

    public init(config: StillConfig) { self.config = config }

    /// Stops a series after the still being taken.
    public func requestStop() { stopRequested.withLock { $0 = true } }

    /// Takes the photos; returns every file written.
    public func run(events: @escaping @Sendable (RecordingEvent) -> Void) throws(CamrecError) -> RecordingResult {
        let pipeline: Pipeline
        let sink: AppSink
        let encoder: StillEncoder
        let frameGuard: (FrameGuard, ProbeToken)?
        var overlayToken: ProbeToken?
        // The element named "src" is the camera: its errors say busy, gone or refused.
        var camera: Element?
        do {
            pipeline = try Pipeline.withBuiltIns(try description())
            camera = try? pipeline.element(named: "src")
            // Empty and cut-short camera frames never become a photo.
            frameGuard = try FrameGuard.install(for: config.source, in: pipeline) {}
            sink = try AppSink(pipeline.element(named: "frames"))
            overlayToken = try OverlayTextProbe.install(config.picture.text, in: pipeline, device: config.source.deviceName,
                                                         rate: config.rate)
            encoder = try StillEncoder(format: config.format)
            try pipeline.setStateThrowingPostedError(.playing)
        } catch let error as CamrecError {
            throw error
        } catch let error as GStreamerError {
            throw FailureMapping.camrecError(for: error, camera: camera)
        } catch {
            throw CamrecError(.failure, "\(error)")
        }
        defer {
            frameGuard?.1.remove()
            overlayToken?.remove()
            _ = try? pipeline.setState(.null)
        }
        let bus = pipeline.bus
        var files: [ResultFile] = []
        let pixels = config.size.width * config.size.height
        let settleDeadline = ContinuousClock.now + config.settle.duration
        var settler = ExposureSettler()
        var nextNumber = 1
        var firstPts: UInt64?
        var settled = config.settle.nanoseconds == 0
        var nextShot = ContinuousClock.now
        // The camera lost once it delivered (unplugged mid-series): the stills taken are the
        // result, with the lost camera's exit status (79), not an internal error.
        func ended(by failure: ElementFailure?) throws(CamrecError) -> RecordingResult {
            let error = failure.map { FailureMapping.camrecError(for: $0, camera: camera) }
                ?? CamrecError(.cameraLost, "the camera delivered no frame for 2 s")
            guard firstPts != nil, error.kind == .failure || error.kind == .cameraLost || error.kind == .noCamera else { throw error }
            let taken = files.count == 1 ? "1 still was" : "\(files.count) stills were"
            return RecordingResult(reason: .cameraLost, files: files, droppedFrames: 0,
                                   message: "camera lost: \(failure?.message ?? error.message); \(taken) taken of \(config.count)")
        }
        // This loop is the bus's reader: it reads every message queued, and an error ends the
        // series; the others say nothing a still needs.
        func postedError() -> ElementFailure? {
            while let message = bus?.pop(timeoutNanoseconds: 0) {
                if case .error(let failure) = message { return failure }
            }
            return nil
        }
        while files.count < config.count {
            if stopRequested.withLock({ $0 }) {
                return RecordingResult(reason: .signal, files: files, droppedFrames: 0)
            }
            if let failure = postedError() { return try ended(by: failure) }
            guard let sample = sink.pullSample(timeoutNanoseconds: 2_000_000_000) else {
                return try ended(by: postedError())
            }
            let pts = sample.timing?.pts ?? 0
            let first = firstPts ?? pts
            firstPts = first
            if !settled {
                let brightness = sample.withBytes { ExposureSettler.meanLuma($0, pixels: pixels) } ?? 0
                let stable = settler.add(brightness)
                if !stable && ContinuousClock.now < settleDeadline { continue }
                if !stable {
                    events(.warning("the picture had not settled after \(config.settle) (use --settle to wait longer)"))
                }
                settled = true
            }
            guard ContinuousClock.now >= nextShot else { continue }
            let captured = StillStamp.captureTime(of: sample, in: sink)
            let encoded = try encoder.encode(sample)
            let (bytes, warning) = StillStamp.apply(encoded, format: config.format, captured: captured, tags: config.tags)
            if let warning { events(.warning(warning)) }
            let path: String
            switch config.output {
            case .file(let target, let overwrite):
                try AtomicFile.write(bytes, to: target, replace: overwrite)
                path = target
            case .series(let naming):
                let written = try AtomicFile.writeNew(bytes, naming: naming, from: nextNumber)
                nextNumber = written.number + 1
                path = written.path
            }
            var file = ResultFile(path: path, kind: "still", duration: nil, frames: nil, bytes: Int64(bytes.count))
            file.pts = Double(pts >= first ? pts - first : 0) / 1e9
            file.captureTime = captured.iso8601(utc: false)
            file.trigger = .command
            files.append(file)
            events(.still(file))
            nextShot = ContinuousClock.now + config.interval.duration
        }
        return RecordingResult(reason: .completed, files: files, droppedFrames: 0)
    }

    private func description() throws(CamrecError) -> String {
        let template = PipelineTemplate.still
        var values = RecordPipeline.sourceValues(source: config.source, size: config.size, rate: config.rate)
        values["decode"] = values["decode_shared", default: ""] + " " + values["decode_record", default: ""]
        values["decode_shared"] = nil
        values["decode_record"] = nil
        RecordPipeline.addPicture(config.picture, size: config.size, printed: false, to: &values, template: template)
        do {
            return try template.render(values)
        } catch {
            throw CamrecError(.usage, error.message)
        }
    }
}

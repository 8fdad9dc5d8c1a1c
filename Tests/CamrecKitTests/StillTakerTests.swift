@testable import CamrecKit
@testable import Stills
import Foundation
import GStreamer
import Synchronization
import Testing

/// `StillTaker` on a real, tiny pipeline shaped like the recording's (a live test source,
/// a tee, the movie branch with the `FrameGate` in a probe, and the stills appsink that
/// only ever holds the newest frame). The stills are checked with ffprobe.
@Suite struct StillTakerTests {
    /// The recording pipeline's shape at 160x120, without encoder and muxer.
    final class Branches {
        let pipeline: Pipeline
        let sink: AppSink
        let gate = FrameGate(limit: nil, rate: FrameRateValue(numerator: 30, denominator: 1))
        private var gateToken: ProbeToken?

        init() throws {
            pipeline = try Pipeline.parse(
                "videotestsrc is-live=true name=src ! video/x-raw,format=I420,width=160,height=120,framerate=30/1 ! tee name=t"
                    + " t. ! queue name=record ! fakesink sync=false"
                    + " t. ! appsink name=stills drop=true max-buffers=1 sync=false async=false wait-on-eos=false")
            sink = try AppSink(pipeline.element(named: "stills"))
            let gate = self.gate
            gateToken = try pipeline.element(named: "record").staticPad("src").addProbe(.buffer) { info in
                guard let buffer = info.buffer else { return .pass }
                return gate.admit(pts: buffer.pts) {}
            }
        }

        /// Starts the pipeline and waits (generously) until the movie branch has `frames` frames.
        func start(frames: Int = 3) throws {
            try pipeline.setState(.playing)
            try #require(Wait.until(timeout: 60) { gate.frames >= frames }, "no \(frames) frames within 60 s")
        }

        deinit {
            gateToken?.remove()
            _ = try? pipeline.setState(.null)
        }
    }

    /// What the taker reported through its events closure.
    final class Events: Sendable {
        private let stills = Mutex<[ResultFile]>([])
        private let warnings = Mutex<[String]>([])

        func record(_ event: RecordingEvent) {
            switch event {
            case .still(let file): stills.withLock { $0.append(file) }
            case .warning(let message): warnings.withLock { $0.append(message) }
            default: Issue.record("unexpected event \(event)")
            }
        }

        var files: [ResultFile] { stills.withLock { $0 } }
        var messages: [String] { warnings.withLock { $0 } }
    }

    /// A completion's outcome, waited for.
    final class Outcome: Sendable {
        private let result = Mutex<Result<ResultFile, CamrecError>?>(nil)
        func set(_ value: Result<ResultFile, CamrecError>) { result.withLock { $0 = value } }
        func wait() throws -> Result<ResultFile, CamrecError> {
            try #require(Wait.until(timeout: 60) { result.withLock { $0 } != nil }, "the still never completed")
            return try #require(result.withLock { $0 })
        }
    }

    static func folder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("camrec-stills-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static func settings(_ format: StillFormat, in folder: String) -> StillSettings {
        StillSettings(format: format, naming: StillNaming(prefix: folder + "/s-", width: 4, suffix: format.fileExtension, isPattern: true),
                      every: nil)
    }

    /// ffprobe's codec, size and pixel format of an image.
    static func probe(_ path: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["ffprobe", "-v", "error", "-show_entries", "stream=codec_name,width,height,pix_fmt", "-of", "csv=p=0", path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test(arguments: [StillFormat.jpeg(quality: 90), .png])
    func takesTheNewestFrameAndSaysWhereItIsInTheMovie(_ format: StillFormat) throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let branches = try Branches()
        try branches.start()
        let events = Events()
        let taker = StillTaker(sink: branches.sink, settings: Self.settings(format, in: folder), gate: branches.gate,
                               events: { events.record($0) })
        let outcome = Outcome()
        #expect(taker.request(.control) { outcome.set($0) })
        let file = try outcome.wait().get()
        #expect(file.path == folder + "/s-0001" + format.fileExtension)
        #expect(file.kind == "still" && file.trigger == .control)
        #expect(file.bytes == Int64((try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? -1))
        let frame = try #require(file.frame, "no movie frame for the still")
        let pts = try #require(file.pts)
        // The test source's frames are exactly 1/30 s apart from the movie's first.
        #expect(abs(pts - Double(frame) / 30) < 0.002, "frame \(frame) at \(pts) s")
        #expect((file.latencyMs ?? -1) >= 0)
        switch format {
        case .jpeg: #expect(try Self.probe(file.path) == "mjpeg,160,120,yuvj420p")  // full range, as docs/stills.md says
        case .png: #expect(try Self.probe(file.path).hasPrefix("png,160,120,"))
        }
        let finished = taker.finish()
        #expect(finished == [file])
        // The event is reported on the stills thread, a moment after the still is counted.
        #expect(Wait.until(timeout: 60) { events.files.count == 1 })
        #expect(events.files == [file])
        #expect(events.messages.isEmpty)
        #expect(taker.request(.control) == false, "a finished taker takes no more requests")
    }

    /// Requests queued before `finish()` are all taken before it returns, in order, each from
    /// a frame of its own, under names that skip a file that exists.
    @Test func queuedRequestsAreTakenBeforeFinishReturns() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data("keep".utf8).write(to: URL(fileURLWithPath: folder + "/s-0002.jpg"))
        let branches = try Branches()
        try branches.start()
        let events = Events()
        let taker = StillTaker(sink: branches.sink, settings: Self.settings(.jpeg(quality: 80), in: folder), gate: branches.gate,
                               events: { events.record($0) })
        for trigger in [StillTrigger.signal, .periodic, .key] { #expect(taker.request(trigger)) }
        let files = taker.finish()
        #expect(files.map(\.trigger) == [.signal, .periodic, .key])
        #expect(files.map(\.path) == ["0001", "0003", "0004"].map { folder + "/s-\($0).jpg" })
        let frames = files.compactMap(\.frame)
        #expect(frames.count == 3 && zip(frames, frames.dropFirst()).allSatisfy { $0 < $1 }, "frames \(frames)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/s-0002.jpg")) == Data("keep".utf8))
        #expect(taker.files == files)
        // The last still's event is reported on the stills thread after finish() has counted
        // it: it may come a moment after finish() returned.
        #expect(Wait.until(timeout: 60) { events.files.count == 3 })
        #expect(events.files == files)
        for file in files { #expect(try Self.probe(file.path).hasPrefix("mjpeg,160,120")) }
    }

    /// A still that cannot be written is a warning and a failed completion, and the taker
    /// goes on: the next one, once the folder is back, is written.
    @Test func aStillThatCannotBeWrittenIsAWarning() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let branches = try Branches()
        try branches.start()
        let events = Events()
        let taker = StillTaker(sink: branches.sink, settings: Self.settings(.jpeg(quality: 90), in: folder), gate: branches.gate,
                               events: { events.record($0) })
        try FileManager.default.removeItem(atPath: folder)
        let failed = Outcome()
        taker.request(.signal) { failed.set($0) }
        guard case .failure(let error) = try failed.wait() else {
            Issue.record("a still was written into a folder that does not exist")
            return
        }
        #expect(error.status == .cannotCreateOutput, "\(error)")
        #expect(events.messages.count == 1 && events.messages.first?.hasPrefix("still not taken: ") == true, "\(events.messages)")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let written = Outcome()
        taker.request(.signal) { written.set($0) }
        let file = try written.wait().get()
        #expect(FileManager.default.fileExists(atPath: file.path))
        #expect(taker.finish() == [file])
    }

    /// No frame to take (the pipeline is not running): a warning, no file.
    @Test func noFrameIsAWarningAndNoFile() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let branches = try Branches()  // never started
        let events = Events()
        let taker = StillTaker(sink: branches.sink, settings: Self.settings(.png, in: folder), gate: branches.gate,
                               events: { events.record($0) })
        let outcome = Outcome()
        taker.request(.command) { outcome.set($0) }
        guard case .failure = try outcome.wait() else {
            Issue.record("a still without a frame")
            return
        }
        #expect(taker.finish().isEmpty)
        #expect(Wait.until(timeout: 60) { events.messages.count == 1 }, "\(events.messages)")
        #expect(events.files.isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
    }
}

@testable import CamrecKit
@testable import Trim
import Foundation
import GStreamer
import Testing

/// Every wait of a trim is bounded: a stage that makes no progress for the stall timeout
/// (here half a second, injected) ends the trim with a `stalled` error (exit status 1)
/// instead of hanging it for ever. Each test builds a stage that never progresses.
@Suite("Trim stalls", .serialized)
struct TrimStallTests {
    static let quick = Duration.milliseconds(500)

    func expectStall(
        mentioning stage: String, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void
    ) {
        do {
            try body()
            Issue.record("expected a stall", sourceLocation: sourceLocation)
        } catch let error as CamrecError {
            #expect(error.kind == .stalled, "\(error.message)", sourceLocation: sourceLocation)
            #expect(error.status == .failure, sourceLocation: sourceLocation)
            #expect(error.message.contains(stage) && error.message.contains("no progress for 500 ms"), "\(error.message)",
                    sourceLocation: sourceLocation)
        } catch {
            Issue.record("expected a stall, got \(error)", sourceLocation: sourceLocation)
        }
    }

    @Test func theMessageGivesTheBoundInItsUnit() {
        #expect(CamrecError.stalled("the muxer", after: .seconds(30)).message
            == "the muxer made no progress for 30 s and was given up on (stalled)")
        #expect(CamrecError.stalled("the muxer", after: .milliseconds(1500)).message.contains("for 1500 ms"))
    }

    static func h264Caps() throws -> Caps { try Caps("video/x-h264,stream-format=byte-stream,alignment=au") }

    @Test("a re-encoder that never returns a frame")
    func encoderThatNeverDrains() throws {
        let control = TrimControl(stallTimeout: Self.quick)
        let encoder = try FrameEncoder(
            codec: .h264, inputCaps: Self.h264Caps(), keep: 0..<Int64.max,
            encoding: VideoEncoding.h264Edges(matching: nil), parameterSetID: 1, effort: .edges, control: control
        )
        // Never fed and never finished: the appsink never gets a frame or the end of stream.
        expectStall(mentioning: "re-encoder") { _ = try encoder.remaining() }
    }

    @Test("a push into a pipeline that takes nothing")
    func pushIntoAStalledPipeline() throws {
        // PAUSED: the sink prerolls on the first buffer and then takes nothing more, so the
        // appsrc's queue (one byte) fills and the next push blocks.
        let pipeline = try Pipeline.parse("appsrc name=source format=time block=true max-bytes=1 ! fakesink")
        defer { _ = try? pipeline.setState(.null) }
        let source = try AppSrc(pipeline.element(named: "source"))
        _ = try pipeline.setState(.paused)
        let control = TrimControl(stallTimeout: Self.quick)
        expectStall(mentioning: "the test stage") {
            for _ in 0..<10 {
                guard let buffer = Buffer(bytes: [0, 1, 2, 3]) else { return }
                _ = try source.push(buffer, stage: "the test stage", control: control)
            }
        }
    }

    @Test("a cancellation wakes a blocked push at once")
    func cancellationWakesABlockedPush() throws {
        let pipeline = try Pipeline.parse("appsrc name=source format=time block=true max-bytes=1 ! fakesink")
        defer { _ = try? pipeline.setState(.null) }
        let source = try AppSrc(pipeline.element(named: "source"))
        _ = try pipeline.setState(.paused)
        // A stall would take ten minutes: only the cancellation can end this test.
        let control = TrimControl(stallTimeout: .seconds(600))
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) { control.cancel(reason: "SIGINT") }
        do {
            for _ in 0..<10 {
                guard let buffer = Buffer(bytes: [0, 1, 2, 3]) else { return }
                _ = try source.push(buffer, stage: "the test stage", control: control)
            }
            Issue.record("expected an interruption")
        } catch {
            #expect(error.kind == .interrupted, "\(error.message)")
            #expect(error.status == .aborted)
            #expect(error.message.contains("SIGINT"))
        }
    }

    @Test("a pipeline that never ends: the bus wait gives up")
    func pipelineThatNeverEnds() throws {
        let pipeline = try Pipeline.parse("appsrc name=source format=time ! fakesink")
        defer { _ = try? pipeline.setState(.null) }
        _ = try pipeline.setState(.playing)
        let control = TrimControl(stallTimeout: Self.quick)
        expectStall(mentioning: "the test muxer") {
            try PipelineRunner.waitForEndOfStream(pipeline, watch: control.watch("the test muxer"), progress: { 0 })
        }
    }

    @Test("a wait that progresses is never a stall, however long it takes")
    func progressKeepsAWaitAlive() throws {
        let pipeline = try Pipeline.parse("appsrc name=source format=time ! fakesink")
        defer { _ = try? pipeline.setState(.null) }
        let source = try AppSrc(pipeline.element(named: "source"))
        _ = try pipeline.setState(.playing)
        let control = TrimControl(stallTimeout: Self.quick)
        // Progress on every poll (about ten a second) for 30 polls, three times the stall
        // timeout; then the end of stream.
        var polls: Int64 = 0
        try PipelineRunner.waitForEndOfStream(pipeline, watch: control.watch("the test muxer"), progress: {
            polls += 1
            if polls == 30 { source.endOfStream() }
            return polls
        })
        #expect(polls >= 30)
    }

    @Test("a demuxer whose input never delivers")
    func demuxerThatNeverDelivers() throws {
        // A named pipe that a writer holds open and never writes to: the demuxer waits for
        // data for ever.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("camrec-stall-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("in.mkv").path
        try #require(mkfifo(fifo, 0o600) == 0)
        let writer = open(fifo, O_RDWR)
        try #require(writer >= 0)
        var writerOpen = true
        defer { if writerOpen { close(writer) } }
        let control = TrimControl(stallTimeout: Self.quick)
        let reader = try MovieReader(path: fifo, container: .matroska, codec: .h264, control: control)
        try reader.start(at: nil)
        expectStall(mentioning: "demuxer") { _ = try reader.nextVideo() }
        // End the pipe so that the reader's thread, blocked in read(), can stop.
        close(writer)
        writerOpen = false
        reader.stop()
    }
}

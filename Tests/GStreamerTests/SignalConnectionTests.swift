import Foundation
import GStreamer
import Synchronization
import Testing

/// Generic signal connection with run-once disconnection tokens, and the typed helpers.
@Suite struct SignalConnectionTests {
    @Test func aGenericHandlerSeesTheSignalsArguments() throws {
        let tee = try Element.make("tee", name: "t")
        let seen = Mutex<[String]>([])
        let token = try tee.connect("pad-added") { arguments in
            let emitter = arguments.element(0)?.name ?? "?"
            let pad = arguments.pad(1)?.name ?? "?"
            // Out of range, or of another type: nil, never a crash.
            let missing = arguments.pad(2) == nil && arguments.string(1) == nil && arguments.uint(0) == nil
            seen.withLock { $0.append("\(arguments.count) \(emitter) \(pad) \(missing)") }
        }
        defer { token.disconnect() }
        _ = try tee.requestPad("src_%u")  // a tee announces each requested pad, on this thread
        #expect(seen.withLock { $0 } == ["2 t src_0 true"])
    }

    @Test func anUnknownSignalIsReported() throws {
        let tee = try Element.make("tee", name: "t")
        #expect(throws: GStreamerError.signal(object: "t", name: "no-such-signal")) {
            _ = try tee.connect("no-such-signal") { _ in }
        }
    }

    @Test func disconnectingStopsCallsAndReleasesTheHandler() throws {
        let tee = try Element.make("tee", name: "t")
        let calls = Mutex(0)
        weak var released: CallbackWitness?
        let token: SignalToken
        do {
            let witness = CallbackWitness()
            released = witness
            token = tee.onPadAdded { _ in
                _ = witness
                calls.withLock { $0 += 1 }
            }
        }
        _ = try tee.requestPad("src_%u")
        #expect(calls.withLock { $0 } == 1)
        #expect(released != nil, "the connection holds its handler")
        token.disconnect()
        #expect(released == nil, "disconnecting released the handler")
        _ = try tee.requestPad("src_%u")
        #expect(calls.withLock { $0 } == 1, "no call after disconnect()")
        token.disconnect()  // idempotent
    }

    @Test func droppingTheTokenDisconnects() throws {
        let tee = try Element.make("tee", name: "t")
        let calls = Mutex(0)
        do {
            let token = tee.onPadAdded { _ in calls.withLock { $0 += 1 } }
            _ = try tee.requestPad("src_%u")
            _ = token
        }
        _ = try tee.requestPad("src_%u")
        #expect(calls.withLock { $0 } == 1)
    }

    @Test func aTypedPadAddedHandlerLinksADemuxersPads() throws {
        // A demuxer's pads appear while it runs: link them from the handler.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("camrec-signal-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let movie = folder.appendingPathComponent("in.mkv").path
        _ = try runToEnd(Pipeline.parse(
            "videotestsrc num-buffers=5 ! video/x-raw,width=32,height=32 ! jpegenc ! matroskamux ! filesink location=\(movie)"))
        let pipeline = try Pipeline.parse("filesrc location=\(movie) ! matroskademux name=demux  fakesink name=sink")
        let sinkPad = try pipeline.element(named: "sink").staticPad("sink")
        let linked = Mutex<[String]>([])
        let token = try pipeline.element(named: "demux").onPadAdded { pad in
            linked.withLock { $0.append(pad.name) }
            try? pad.link(sinkPad)
        }
        defer { token.disconnect() }
        let messages = try runToEnd(pipeline)
        #expect(messages.contains(.endOfStream))
        #expect(linked.withLock { $0 } == ["video_0"])
    }

    @Test func formatLocationFullNamesEachFragment() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("camrec-split-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // Six frames at 30 fps, at most 100 ms per fragment: two fragments of three frames.
        let pipeline = try Pipeline.parse(
            "videotestsrc num-buffers=6 ! video/x-raw,width=32,height=32,framerate=30/1 ! jpegenc ! "
                + "splitmuxsink name=split muxer=matroskamux max-size-time=100000000")
        let asked = Mutex<[String]>([])
        let path = folder.path
        let token = try pipeline.element(named: "split").onFormatLocationFull { fragment, sample in
            asked.withLock { $0.append("\(fragment) \(sample?.caps?.mediaType ?? "none")") }
            return "\(path)/part-\(fragment).mkv"
        }
        defer { token.disconnect() }
        let messages = try runToEnd(pipeline)
        #expect(messages.contains(.endOfStream))
        #expect(asked.withLock { $0 } == ["0 image/jpeg", "1 image/jpeg"])
        let files = try FileManager.default.contentsOfDirectory(atPath: path).sorted()
        #expect(files == ["part-0.mkv", "part-1.mkv"])
        // Only a splitmuxsink has the signal.
        let tee = try Element.make("tee", name: "t")
        #expect(throws: GStreamerError.signal(object: "t", name: "format-location-full")) {
            _ = try tee.onFormatLocationFull { _, _ in nil }
        }
    }
}

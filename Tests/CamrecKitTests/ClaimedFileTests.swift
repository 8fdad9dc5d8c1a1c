@testable import CamrecKit
import Foundation
import Testing

/// Issue 31: the pipeline writes the very file camrec claimed (``HeldFile``), never a new
/// file that took its name. A segment's file is claimed when its first frame passes the
/// gate and opened by splitmuxsink a GOP later; a folder removed and made again in between
/// must lose that segment (said as "is gone"), not leave an unclaimed file in the new folder.
@Suite struct ClaimedFileTests {
    func folder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("camrec-claimed-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    func config(output: String, segmented: Bool = false) throws -> RecordConfig {
        var config = RecordConfig(source: .testPattern, size: FrameSize(width: 320, height: 240),
                                  rate: FrameRateValue(numerator: 30, denominator: 1), maxDuration: .seconds(10),
                                  outputPath: output, container: .mp4, overwrite: false, encoder: EncoderSettings())
        if segmented {
            config.segments = SegmentSettings(length: .seconds(1), naming: try SegmentNaming(output: output, utc: true))
        }
        return config
    }

    /// What a GStreamer file sink does with its location: fopen(location, "wb").
    func writeAsSink(_ location: String, _ text: String) throws {
        let fd = open(location, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
        try #require(fd >= 0, "cannot open \(location): errno \(errno)")
        defer { close(fd) }
        let written = text.utf8CString.withUnsafeBufferPointer { write(fd, $0.baseAddress, text.utf8.count) }
        #expect(written == text.utf8.count)
    }

    @Test func theSinkWritesTheClaimedFile() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let plan = try OutputPlan(config: config(output: dir + "/movie.mp4"))
        #expect(plan.sinkLocation != plan.location, "/proc is mounted here: the sink is given the held file")
        try writeAsSink(plan.sinkLocation, "frames")
        #expect(try String(contentsOfFile: plan.location, encoding: .utf8) == "frames")
        let (file, note) = try plan.commitFinalised(0, frames: 1, seconds: 0.1)
        #expect(note == nil)
        #expect(try String(contentsOfFile: file.path, encoding: .utf8) == "frames")
    }

    @Test func aFolderMadeAgainBeforeTheSinkOpensGetsNoFileAndTheMovieIsGone() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let target = dir + "/out"
        try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: false)
        let plan = try OutputPlan(config: config(output: target + "/seg.mp4", segmented: true))
        try writeAsSink(plan.nextLocation(), "segment 1")
        // Segment 2 is claimed as its first frame passes the gate …
        plan.movieStarts()
        // … the folder is removed and made again …
        try FileManager.default.removeItem(atPath: target)
        try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: false)
        // … and only then does splitmuxsink open segment 2's file.
        try writeAsSink(plan.nextLocation(), "segment 2")
        #expect(try FileManager.default.contentsOfDirectory(atPath: target).isEmpty,
                "a file appeared in the new folder that camrec never claimed")
        // Both segments went with the old folder: each is said to be gone.
        for index in 0..<2 {
            do {
                let (file, _) = try plan.commitFinalised(index, frames: 30, seconds: 1)
                Issue.record("segment \(index + 1) was published at \(file.path)")
            } catch {
                #expect(error.message.contains("is gone"), "\(error.message)")
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: target).isEmpty)
    }

    @Test func theLostMovieIsSaidToBeGone() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let target = dir + "/out"
        try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: false)
        let plan = try OutputPlan(config: config(output: target + "/movie.mp4"))
        try FileManager.default.removeItem(atPath: target)
        try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: false)
        try writeAsSink(plan.sinkLocation, "frames")
        do {
            let (file, _) = try plan.commitFinalised(0, frames: 30, seconds: 1)
            Issue.record("the movie was published at \(file.path)")
        } catch {
            #expect(error.message.contains("is gone"), "\(error.message)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: target).isEmpty)
    }

    @Test func aSinkErrorNamesTheTemporaryFileNotTheDescriptor() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let plan = try OutputPlan(config: config(output: dir + "/movie.mp4"))
        let message = plan.readable("Could not open file \"\(plan.sinkLocation)\" for writing.")
        #expect(message == "Could not open file \"\(plan.location)\" for writing.")
    }

    @Test func theFileIsClosedOnceTheMovieIsCommitted() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let plan = try OutputPlan(config: config(output: dir + "/movie.mp4"))
        let held = plan.sinkLocation
        let (file, _) = try plan.commitFinalised(0, frames: 1, seconds: 0.1)
        // The descriptor is closed (or reused by something else): it no longer names the movie.
        let target = try? FileManager.default.destinationOfSymbolicLink(atPath: held)
        #expect(target != file.path && target != plan.location, "\(held) still holds the movie")
    }
}

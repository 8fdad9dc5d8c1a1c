import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Issue 29 item 9: `camrec --json … | sleep 40` — a reader of stdout (and stderr) that
/// stops reading must never hold up the recording: stills are taken, segments finalised
/// and published, and camrec exits, while nobody reads a byte.
@Suite(.serialized) struct StalledReaderTests {
    @Test func item9_aReaderThatStopsReadingHoldsNothingUp() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let output = folder.path("seg.mp4")
        let stdout = Pipe()
        let stderr = Pipe()
        // The smallest pipes the kernel allows (one page): full after a few lines.
        for pipe in [stdout, stderr] { _ = fcntl(pipe.fileHandleForWriting.fileDescriptor, 1031 /* F_SETPIPE_SZ */, 4096) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ChildProcess.cleanSignals + [CamrecBinary.url.path, "--device", "test", "--size", "320x240",
                                                         "--fps", "30", "--segment", "1", "--max-duration", "4",
                                                         "--still-every", "0.25", "--stills", folder.path("still-%04d.jpg"),
                                                         "--json", output]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = stdout
        process.standardError = stderr
        let done = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in done.signal() }
        try process.run()
        // Nobody reads either pipe until camrec has exited.
        let exited = done.wait(timeout: .now() + 120) == .success
        if !exited { process.terminate() }
        let printed = String(decoding: stdout.fileHandleForReading.availableData, as: UTF8.self)
        try #require(exited, "camrec waited for its reader; printed \(printed.prefix(300))")
        #expect(process.terminationStatus == 0)
        // The pipe was full (a line that does not fit whole waits): the reader held up writes.
        #expect(printed.utf8.count > 4096 - 1024, "the reader's pipe was full: \(printed.utf8.count) bytes")
        // Every segment finalised and published, none left partial.
        let movies = folder.contents.filter { $0.hasPrefix("seg-") }
        #expect(movies == ["seg-0001.mp4", "seg-0002.mp4", "seg-0003.mp4", "seg-0004.mp4"], "\(folder.contents)")
        var frames = 0
        for movie in movies { frames += try MediaProbe.probe(folder.path(movie)).frames }
        #expect(frames == 120, "\(frames) frames in the segments")
        // Stills every 0.25 s of a 4-s recording were all taken.
        let stills = folder.contents.filter { $0.hasPrefix("still-") }
        #expect(stills.count >= 14, "\(stills.count) stills: \(folder.contents)")
    }
}

import CamrecKit
import Foundation
import Testing

/// Bad inputs and destinations: one clear line, the right exit status, the input
/// unchanged and nothing left behind.
@Suite("Trim bad inputs", .serialized)
struct TrimBadInputTests {
    func expectFailure(
        _ request: TrimRequest, status: CamrecKit.ExitStatus, mentioning words: [String], in media: MediaFactory,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let before = try FileManager.default.contentsOfDirectory(atPath: media.folder.path).sorted()
        let input = try? Data(contentsOf: URL(fileURLWithPath: request.input))
        do {
            _ = try Trimmer.run(request)
            Issue.record("expected a failure", sourceLocation: sourceLocation)
        } catch {
            #expect(error.status == status, "\(error.message)", sourceLocation: sourceLocation)
            #expect(!error.message.contains("\n"), sourceLocation: sourceLocation)
            for word in words {
                #expect(error.message.contains(word), "'\(error.message)' mentions \(word)", sourceLocation: sourceLocation)
            }
        }
        let after = try FileManager.default.contentsOfDirectory(atPath: media.folder.path).sorted()
        #expect(after == before, "no file left behind", sourceLocation: sourceLocation)
        #expect((try? Data(contentsOf: URL(fileURLWithPath: request.input))) == input, "input unchanged", sourceLocation: sourceLocation)
    }

    @Test func emptyFile() throws {
        let media = try MediaFactory()
        let input = try media.file("empty.mp4", bytes: [])
        try expectFailure(TrimRequest(input: input, start: .seconds(1)), status: .invalidInput, mentioning: ["empty"], in: media)
    }

    @Test func textFile() throws {
        let media = try MediaFactory()
        let input = try media.file("notes.mp4", bytes: Array("hello, this is not a movie\n".utf8))
        try expectFailure(TrimRequest(input: input, start: .seconds(1)), status: .invalidInput, mentioning: ["not an MP4"], in: media)
    }

    @Test func randomBytes() throws {
        let media = try MediaFactory()
        var generator = SystemRandomNumberGenerator()
        let input = try media.file("noise.mkv", bytes: (0..<50_000).map { _ in UInt8.random(in: 0...255, using: &generator) })
        try expectFailure(TrimRequest(input: input, start: .seconds(1)), status: .invalidInput, mentioning: ["noise.mkv"], in: media)
    }

    @Test("truncated MP4 and MKV", arguments: ["mp4", "mkv"])
    func truncated(container: String) throws {
        let media = try MediaFactory()
        let whole = try media.camrecLike("whole.\(container)", seconds: 2)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: whole))
        let input = try media.file("cut.\(container)", bytes: Array(bytes.prefix(bytes.count / 3)))
        try FileManager.default.removeItem(atPath: whole)
        // A movie cut short either cannot be read at all or has no frame at 1.5 s.
        try expectFailure(TrimRequest(input: input, start: .init(nanoseconds: 1_500_000_000)), status: .invalidInput, mentioning: ["cut.\(container)"], in: media)
    }

    @Test func aPipeIsNotAMovieFile() throws {
        let media = try MediaFactory()
        let fifo = media.path("in.mp4")
        try #require(mkfifo(fifo, 0o600) == 0)
        // Refused before it is opened: reading a pipe nobody writes to would hang.
        try expectFailure(TrimRequest(input: fifo, start: .seconds(1)), status: .invalidInput, mentioning: ["not a movie file", "a pipe"], in: media)
    }

    @Test func audioOnly() throws {
        let media = try MediaFactory()
        let input = media.path("sound.mp4")
        try ProcessRunner.check("ffmpeg", ["-nostdin", "-v", "error", "-f", "lavfi", "-i", "sine=duration=2", "-c:a", "aac", input])
        try expectFailure(TrimRequest(input: input, start: .seconds(1)), status: .invalidInput, mentioning: ["no video"], in: media)
    }

    @Test func startAfterEnd() throws {
        let media = try MediaFactory()
        let input = try media.camrecLike("in.mp4", seconds: 2, audio: false)
        try expectFailure(TrimRequest(input: input, start: .seconds(2), end: .seconds(1)), status: .usage, mentioning: ["--start"], in: media)
        try expectFailure(TrimRequest(input: input, start: .init(nanoseconds: 1_500_000_000), end: .seconds(-1)), status: .invalidInput, mentioning: ["--start"], in: media)
    }

    @Test func startPastTheEnd() throws {
        let media = try MediaFactory()
        let input = try media.camrecLike("in.mp4", seconds: 2, audio: false)
        try expectFailure(TrimRequest(input: input, start: .seconds(5)), status: .invalidInput, mentioning: ["past the end"], in: media)
    }

    @Test func neitherStartNorEnd() throws {
        let media = try MediaFactory()
        let input = try media.camrecLike("in.mp4", seconds: 1, audio: false)
        try expectFailure(TrimRequest(input: input), status: .usage, mentioning: ["--start"], in: media)
    }

    @Test func missingAndUnreadableInput() throws {
        let media = try MediaFactory()
        try expectFailure(TrimRequest(input: media.path("nothing.mp4"), start: .seconds(1)), status: .invalidInput, mentioning: ["no such file"], in: media)
        let input = try media.camrecLike("in.mp4", seconds: 2, audio: false)
        chmod(input, 0)
        defer { chmod(input, 0o644) }
        if getuid() == 0 { return }  // root reads anything
        try expectFailure(TrimRequest(input: input, start: .seconds(1)), status: .invalidInput, mentioning: ["in.mp4"], in: media)
    }

    @Test func existingOutputWithoutForce() throws {
        let media = try MediaFactory()
        let input = try media.camrecLike("in.mp4", seconds: 2, audio: false)
        let output = try media.file("out.mp4", bytes: [1, 2, 3])
        try expectFailure(TrimRequest(input: input, start: .seconds(1), destination: .path(output)), status: .cannotCreateOutput, mentioning: ["--force"], in: media)
        #expect(try Data(contentsOf: URL(fileURLWithPath: output)) == Data([1, 2, 3]))
        let result = try Trimmer.run(TrimRequest(input: input, start: .seconds(1), destination: .path(output), force: true))
        #expect(result.frames == 30)
    }

    @Test func unwritableDestination() throws {
        let media = try MediaFactory()
        let input = try media.camrecLike("in.mp4", seconds: 2, audio: false)
        try expectFailure(TrimRequest(input: input, start: .seconds(1), destination: .path(media.path("missing/out.mp4"))), status: .cannotCreateOutput, mentioning: ["does not exist"], in: media)
        try expectFailure(TrimRequest(input: input, start: .seconds(1), destination: .path("/proc/out.mp4")), status: .cannotCreateOutput, mentioning: ["/proc"], in: media)
    }

    @Test func outputIsTheInput() throws {
        let media = try MediaFactory()
        let input = try media.camrecLike("in.mp4", seconds: 2, audio: false)
        try expectFailure(TrimRequest(input: input, start: .seconds(1), destination: .path(input), force: true), status: .cannotCreateOutput, mentioning: ["--in-place"], in: media)
    }
}

@Suite("Trim on a full disk", .serialized)
struct TrimDiskFullTests {
    @Test(.enabled(if: getuid() == 0, "needs root to mount a small tmpfs"))
    func fullDisk() throws {
        let media = try MediaFactory()
        let input = try media.camrecLike("in.mp4", seconds: 4)
        let before = try Data(contentsOf: URL(fileURLWithPath: input))
        let small = media.path("small")
        try FileManager.default.createDirectory(atPath: small, withIntermediateDirectories: true)
        let mount = try ProcessRunner.run("mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", small])
        try #require(mount.status == 0, "cannot mount a small tmpfs: \(mount.stderr)")
        defer { _ = try? ProcessRunner.run("umount", [small]) }
        do {
            _ = try Trimmer.run(TrimRequest(input: input, start: .init(nanoseconds: 500_000_000), destination: .path(small + "/out.mp4")))
            Issue.record("expected a disk-full failure")
        } catch {
            #expect(error.status == .diskFull, "\(error.message)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: small).isEmpty, "nothing left behind")
        #expect(try Data(contentsOf: URL(fileURLWithPath: input)) == before)
    }
}

@testable import CamrecKit
@testable import Trim
import Foundation
import Testing

/// Which movies qtdemux would take for a preview (issue 30 item 10): a video track shorter
/// than a fifth of the movie header's duration.
@Suite("Movie header patch for qtdemux's preview heuristic")
struct MovieHeaderPatchTests {
    @Test func onlyAMovieLongerThanFiveTimesItsVideoIsPatched() throws {
        let media = try MediaFactory()
        let plain = media.path("plain.mp4")
        try ProcessRunner.check("ffmpeg", [
            "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25:duration=2",
            "-c:v", "libx264", plain,
        ])
        #expect(MovieHeaderPatch.durationField(path: plain) == nil)
        // 2 s of media after a 5-s gap: 7 s against 2 s is still more than a fifth.
        let near = media.path("near.mp4")
        try ProcessRunner.check("ffmpeg", ["-nostdin", "-v", "error", "-y", "-itsoffset", "5", "-i", plain, "-c", "copy", near])
        #expect(MovieHeaderPatch.durationField(path: near) == nil)
        let late = media.path("late.mp4")
        try ProcessRunner.check("ffmpeg", ["-nostdin", "-v", "error", "-y", "-itsoffset", "100", "-i", plain, "-c", "copy", late])
        let field = try #require(MovieHeaderPatch.durationField(path: late))
        #expect(field.width == 4)
        // The field holds the movie's 102 s in mvhd's timescale (ffmpeg: 1000).
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: late)))
        let value = bytes[Int(field.offset)..<Int(field.offset) + 4].reduce(0) { $0 << 8 | Int($1) }
        #expect(value == 102_000)
        #expect(MovieHeaderPatch.durationField(path: media.path("missing.mp4")) == nil)
    }
}

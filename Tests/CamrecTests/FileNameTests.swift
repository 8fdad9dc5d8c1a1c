import Foundation
import Testing

/// Issue 29 items 6 and 14: what camrec does with file names and output files that are not
/// what it expects: refused with a clear line, never silently changed or replaced.
@Suite struct FileNameTests {
    /// A shell that runs camrec with `script` ($CAMREC is camrec) in `folder`.
    func shell(_ script: String, in folder: TemporaryFolder, umask: String = "022") throws -> ChildProcessResult {
        var environment = ProcessInfo.processInfo.environment
        environment["CAMREC"] = CamrecBinary.url.path
        return try ChildProcess.run("/bin/bash", ["-c", "umask \(umask); cd '\(folder.url.path)' && " + script],
                                    environment: environment, timeout: 60)
    }

    /// `camrec -t 1 $'bad2\xff.mp4'` used to write `bad2\u{FFFD}.mp4`: refused with exit 64.
    @Test func item6_nonUTF8FileNameIsRefused() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let result = try shell(#"$CAMREC --device test --size 320x240 -t 1 $'bad2\xff.mp4'"#, in: folder)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains(#"bad2\xFF.mp4"#) && result.stderr.contains("UTF-8"), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(folder.contents.isEmpty, "left \(folder.contents)")
    }
}

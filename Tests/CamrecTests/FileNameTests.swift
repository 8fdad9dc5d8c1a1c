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

    /// Files are created with 0666 & ~umask, as every tool does (umask 000 gave 0644):
    /// a movie, segments and a still.
    @Test(arguments: [("000", 0o666), ("027", 0o640)])
    func item14_filesAreCreatedWithTheUmask(umask: String, mode: Int) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let recording = "--device test --size 320x240 --fps 30"
        let result = try shell("$CAMREC \(recording) -t 0.5 movie.mp4 && $CAMREC \(recording) -t 1 --segment 0.5 seg.mkv"
                               + " && $CAMREC still --device test --size 320x240 --settle 0 photo.jpg", in: folder, umask: umask)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(folder.contents.count == 4, "\(folder.contents)")
        for name in folder.contents {
            let attributes = try FileManager.default.attributesOfItem(atPath: folder.path(name))
            let permissions = (attributes[.posixPermissions] as? Int) ?? -1
            #expect(permissions == mode, "umask \(umask): \(name) has mode \(String(permissions, radix: 8))")
        }
    }

    /// `-f` onto a FIFO (or any other non-regular file) is refused (exit 73) and the FIFO stays.
    @Test func item14_forceOntoAFIFOIsRefused() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        #expect(mkfifo(folder.path("pipe.mp4"), 0o644) == 0 && mkfifo(folder.path("pipe.jpg"), 0o644) == 0)
        for script in ["$CAMREC --device test --size 320x240 -t 0.5 -f pipe.mp4",
                       "$CAMREC still --device test --size 320x240 --settle 0 -f pipe.jpg"] {
            let result = try shell(script, in: folder)
            #expect(result.status == 73, "\(script): \(result.stderr)")
            #expect(result.stderr.contains("FIFO"), "\(result.stderr)")
        }
        #expect(folder.contents == ["pipe.jpg", "pipe.mp4"], "\(folder.contents)")
        for name in folder.contents {
            var info = stat()
            #expect(lstat(folder.path(name), &info) == 0 && (info.st_mode & S_IFMT) == S_IFIFO, "\(name) was replaced")
        }
    }

    /// Without --segment, strftime fields in OUTPUT are written as they are: a warning says so
    /// (a daily job would fail from day 2 on the existing name).
    @Test func item14_strftimeFieldsWithoutSegmentWarn() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let result = try shell("$CAMREC --device test --size 320x240 -t 0.3 'cam-%Y%m%d.mp4'", in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("warning: cam-%Y%m%d.mp4 is used as written"), "\(result.stderr)")
    }

    /// A control byte in a segmented OUTPUT was taken for the counter's mark
    /// (`seg\x01x.mp4` gave seg0001x-0001.mp4): refused, exit 64, nothing recorded.
    @Test func item14_controlByteInASegmentedNameIsRefused() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let result = try shell(#"$CAMREC --device test --size 320x240 -t 1 --segment 0.5 $'seg\x01x.mp4'"#, in: folder)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains(#"seg\x01x.mp4"#) && result.stderr.contains("control character"), "\(result.stderr)")
        #expect(folder.contents.isEmpty, "\(folder.contents)")
    }
}

@testable import CamrecKit
@testable import Stills
import Foundation
import Testing

@Suite struct StillNamingTests {
    @Test func defaultNamesSitBesideTheMovie() {
        let naming = StillNaming.beside(moviePath: "clips/day.mp4", format: .jpeg(quality: 90))
        #expect(naming.path(1) == "clips/day-still-0001.jpg")
        #expect(naming.path(12345) == "clips/day-still-12345.jpg")
        #expect(naming.folder == "clips")
    }

    @Test func patternsAndFolders() throws {
        let pattern = try StillNaming.parse("shots/img-%03d.png", moviePath: "a.mkv", format: .png)
        #expect(pattern.path(7) == "shots/img-007.png")
        let percent = try StillNaming.parse("100%%-%d.jpg", moviePath: "a.mkv", format: .jpeg(quality: 90))
        #expect(percent.path(2) == "100%-2.jpg")
        let folder = try StillNaming.parse("shots/", moviePath: "dir/a.mkv", format: .jpeg(quality: 90))
        #expect(folder.path(1) == "shots/a-still-0001.jpg")
    }

    @Test(arguments: ["a-%d-%d.jpg", "a-%s.jpg", "a-%", "a-%123d.jpg", "no-counter-%%.jpg"])
    func badPatterns(_ text: String) {
        #expect(throws: CamrecError.self) { try StillNaming.parse(text, moviePath: "m.mp4", format: .png) }
    }

    /// An empty --stills is no folder: it would put stills at the filesystem root.
    @Test func emptyIsAUsageError() {
        #expect(throws: CamrecError(.usage, "--stills needs a pattern with one counter like shots/img-%04d.jpg, or a folder like shots/ (not '')")) {
            try StillNaming.parse("", moviePath: "m.mp4", format: .jpeg(quality: 90))
        }
        #expect { try StillSettings.resolve(pattern: "", format: nil, every: nil, moviePath: "m.mp4") } throws: { error in
            (error as? CamrecError)?.status == .usage
        }
        let root = try? StillNaming.parse("/", moviePath: "dir/m.mp4", format: .png)
        #expect(root?.path(1) == "/m-still-0001.png")
    }

    @Test func patternExtensionMustBeTheFormats() throws {
        #expect(try StillNaming.parse("s/x-%d.JPEG", moviePath: "m.mp4", format: .jpeg(quality: 90)).path(3) == "s/x-3.JPEG")
        #expect { try StillNaming.parse("s/x-%d.png", moviePath: "m.mp4", format: .jpeg(quality: 90)) } throws: { error in
            (error as? CamrecError)?.message == "--stills 's/x-%d.png' names PNG files but the stills are JPEG (--still-format): end the pattern with .jpg, or pass --still-format png"
        }
        for text in ["s/x-%d.txt", "s/x-%d", "s.d/x-%d"] {
            #expect { try StillNaming.parse(text, moviePath: "m.mp4", format: .png) } throws: { error in
                (error as? CamrecError)?.status == .usage && (error as? CamrecError)?.message.hasSuffix("end it with .jpg, .jpeg or .png") == true
            }
        }
        // A folder gets the format's extension, whatever its own name looks like.
        #expect(try StillNaming.parse("shots.png", moviePath: "m.mp4", format: .jpeg(quality: 90)).path(1) == "shots.png/m-still-0001.jpg")
    }

    @Test func theExtensionPicksTheFormat() throws {
        let png = try StillSettings.resolve(pattern: "s/img-%02d.png", format: nil, every: nil, moviePath: "m.mp4")
        #expect(png.format == .png && png.naming.path(1) == "s/img-01.png")
        let jpeg = try StillSettings.resolve(pattern: "s/img-%02d.jpeg", format: nil, quality: 70, every: nil, moviePath: "m.mp4")
        #expect(jpeg.format == .jpeg(quality: 70))
        let agreed = try StillSettings.resolve(pattern: "s/img-%02d.png", format: .png, every: nil, moviePath: "m.mp4")
        #expect(agreed.format == .png)
        #expect { try StillSettings.resolve(pattern: "s/img-%02d.png", format: .jpeg(quality: 90), every: nil, moviePath: "m.mp4") } throws: { error in
            (error as? CamrecError)?.message == "--stills 's/img-%02d.png' names PNG files but --still-format is jpeg: end the pattern with .jpg, or leave out --still-format"
        }
        #expect(throws: CamrecError.self) { try StillSettings.resolve(pattern: "s/img-%02d.gif", format: nil, every: nil, moviePath: "m.mp4") }
        // A folder or no --stills: --still-format, JPEG by default.
        let folder = try StillSettings.resolve(pattern: "shots/", format: .png, every: .seconds(2), moviePath: "d/m.mp4")
        #expect(folder.format == .png && folder.naming.path(1) == "shots/m-still-0001.png" && folder.every == .seconds(2))
        let plain = try StillSettings.resolve(pattern: nil, format: nil, quality: 80, every: nil, moviePath: "d/m.mp4")
        #expect(plain == StillSettings(format: .jpeg(quality: 80), naming: .beside(moviePath: "d/m.mp4", format: .jpeg(quality: 80)), every: nil))
    }

    @Test func formatFromAPath() {
        #expect(StillFormat(path: "a/b.JPG", quality: 50) == .jpeg(quality: 50))
        #expect(StillFormat(path: "b.jpeg") == .jpeg(quality: StillFormat.defaultQuality))
        #expect(StillFormat(path: "b.png") == .png)
        for path in ["b.txt", "b", ".png", "dir.png/b", "b.png.bak"] { #expect(StillFormat(path: path) == nil, "\(path)") }
    }
}

/// Where stills go is checked before the camera opens (exit 73), honestly as root too: a
/// missing folder or a path under a regular file can never be written.
@Suite struct StillDestinationTests {
    func failure(_ naming: StillNaming) -> CamrecError? {
        do {
            try naming.checkDestination()
            return nil
        } catch {
            return error
        }
    }

    @Test func missingFolder() throws {
        let naming = try StillNaming.parse("/nonexistent-camrec/dir/", moviePath: "m.mp4", format: .jpeg(quality: 90))
        #expect(failure(naming) == CamrecError(.cannotCreateOutput,
            "cannot create /nonexistent-camrec/dir/m-still-0001.jpg: folder /nonexistent-camrec/dir does not exist; create it first"))
    }

    @Test func folderThatIsAFile() throws {
        let file = try StillNaming.parse("/etc/passwd", moviePath: "m.mp4", format: .png)
        #expect(failure(file) == CamrecError(.cannotCreateOutput, "cannot create /etc/passwd/m-still-0001.png: /etc/passwd is not a folder"))
        let under = try StillNaming.parse("/etc/passwd/x/img-%d.png", moviePath: "m.mp4", format: .png)
        #expect(failure(under) == CamrecError(.cannotCreateOutput,
            "cannot create /etc/passwd/x/img-1.png: /etc/passwd/x is not a folder (part of it is a file)"))
    }

    @Test func writableFolderPasses() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("camrec-dest-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(failure(try StillNaming.parse(folder.path + "/s-%03d.jpg", moviePath: "m.mp4", format: .jpeg(quality: 90))) == nil)
        #expect(failure(.beside(moviePath: "relative.mp4", format: .png)) == nil, "the current folder")
        // Only a user other than root is refused by a read-only folder's mode.
        guard getuid() != 0 else { return }
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path) }
        #expect(failure(.beside(moviePath: folder.path + "/m.mp4", format: .png))?.message.contains("is not writable") == true)
    }
}

@Suite struct ExposureSettlerTests {
    @Test func settlesOnlyWhenBrightnessStopsChanging() {
        var settler = ExposureSettler()
        // A ramp from black: never stable while it climbs, even slowly.
        for step in 0..<40 { #expect(settler.add(Double(step) * 0.5) == false) }
        var settledAt: Int?
        for frame in 0..<10 where settledAt == nil {
            if settler.add(100 + (frame.isMultiple(of: 2) ? 0.3 : -0.3)) { settledAt = frame }
        }
        #expect(settledAt == ExposureSettler.window - 1)
    }
}

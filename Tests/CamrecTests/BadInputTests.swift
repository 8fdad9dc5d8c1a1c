import Foundation
import Testing

/// Bad input: one clear line on stderr, a distinct exit code, and no file touched.
@Suite struct BadInputTests {
    struct Case: Sendable, CustomStringConvertible {
        let arguments: [String]
        let status: Int32
        let mentions: String
        var description: String { arguments.joined(separator: " ") }
    }

    static let usageCases: [Case] = [
        Case(arguments: ["--maxduration", "5", "OUT.mp4"], status: 64, mentions: "did you mean '--max-duration'"),
        Case(arguments: ["--max-duration", "10q", "OUT.mp4"], status: 64, mentions: "invalid duration '10q'"),
        Case(arguments: ["--size", "12x", "OUT.mp4"], status: 64, mentions: "--size"),
        Case(arguments: ["--fps", "0", "OUT.mp4"], status: 64, mentions: "--fps"),
        Case(arguments: ["--timelapse", "0", "OUT.mp4"], status: 64, mentions: "--timelapse 0 keeps no time between frames"),
        Case(arguments: ["--device", "test", "--timelapse", "1s", "--on-motion", "OUT.mp4"], status: 64, mentions: "cannot make event clips"),
        Case(arguments: ["--device", "test"], status: 64, mentions: "missing OUTPUT"),
        Case(arguments: ["--device", "test", "OUT.avi"], status: 64, mentions: ".mp4, .mov or .mkv"),
        Case(arguments: ["--device", "test", "NOFOLDER/x/OUT.mp4"], status: 73, mentions: "does not exist"),
        Case(arguments: ["--device", "/dev/video99", "OUT.mp4"], status: 66, mentions: "no camera at /dev/video99"),
    ]

    @Test(arguments: usageCases)
    func badInputGivesOneLineAndItsExitCode(_ input: Case) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let arguments = input.arguments.map { $0.replacingOccurrences(of: "OUT.", with: folder.path("out.")).replacingOccurrences(of: "NOFOLDER", with: folder.path("missing")) }
        let result = try CamrecBinary.run(arguments, timeout: 20)
        #expect(result.status == input.status, "stderr: \(result.stderr)")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "want one line, got: \(result.stderr)")
        #expect(result.stderr.contains(input.mentions), "\(result.stderr)")
        #expect(!result.stderr.contains("Fatal error"))
        #expect(folder.contents.isEmpty, "left behind: \(folder.contents)")
    }

    @Test func existingOutputIsNeverTouchedWithoutForce() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let output = folder.path("keep.mp4")
        let original = Data("precious".utf8)
        try original.write(to: URL(fileURLWithPath: output))
        let result = try CamrecBinary.run(["--device", "test", "--max-duration", "1", "--json", output])
        #expect(result.status == 73)
        #expect(result.stderr.contains("already exists") && result.stderr.contains("--force"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: output)) == original)
        #expect(folder.contents == ["keep.mp4"])
        let error = try #require(JSONLines.parse(result).last)
        #expect(error["type"] as? String == "error")
        #expect(error["exit_code"] as? Int == 73)
    }

    @Test func unwritableFolderIsRefused() throws {
        // /proc refuses new files even for root, where permission bits would not.
        let result = try CamrecBinary.run(["--device", "test", "--max-duration", "1", "/proc/camrec-test.mp4"])
        #expect(result.status == 73, "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    @Test func helpListsOptionsAndExitCodes() throws {
        let result = try CamrecBinary.run(["--help"])
        #expect(result.status == 0)
        for text in ["--max-duration", "--device", "--print-pipeline", "Exit codes", "64", "66", "73", "75", "77", "79"] {
            #expect(result.stdoutText.contains(text), "help lacks \(text)")
        }
        let version = try CamrecBinary.run(["--version"])
        #expect(version.status == 0 && version.stdoutText.hasPrefix("camrec "))
    }
}

/// A missing GStreamer plugin: camrec names the element and the Debian package, exits 69,
/// and leaves nothing behind. The child sees every installed plugin but x264: `--encoder
/// auto` then takes the next software H.264 encoder (openh264enc) and says so, and asking
/// for x264enc by name is exit 69.
@Suite struct MissingPluginTests {
    @Test func missingEncoderNamesThePackageToInstall() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let environment = try PluginRegistry.environment(withoutPlugin: "libgstx264.so", in: folder)
        let fallback = try CamrecBinary.run(["--device", "test", "--size", "320x240", "--max-duration", "1", "--json",
                                             folder.path("openh264.mp4")], environment: environment, timeout: 300)
        #expect(fallback.status == 0, "\(fallback.stderr)")
        let started = JSONLines.parse(fallback).first { $0["type"] as? String == "started" } ?? [:]
        #expect(started["encoder"] as? String == "openh264enc", "\(started)")
        #expect(try MediaProbe.probe(folder.path("openh264.mp4")).codec == "h264")
        let output = folder.path("movie.mp4")
        let result = try CamrecBinary.run(["--device", "test", "--max-duration", "1", "--encoder", "x264enc", output],
                                          environment: environment, timeout: 300)
        #expect(result.status == 69, "\(result.stderr)")
        #expect(result.stderr.contains("x264enc") && result.stderr.contains("gstreamer1.0-plugins-ugly"), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(!FileManager.default.fileExists(atPath: output))
        #expect(!(folder.contents.contains { $0.contains("partial") }))
    }
}

import Foundation
import Testing

/// `--pipeline FILE`: a recording pipeline template of the user's own.
@Suite struct PipelineOptionTests {
    static func builtInTemplate() throws -> String {
        try String(contentsOf: VirtualCameraEnvironment.packageRoot.appendingPathComponent("pipelines/record.pipeline"), encoding: .utf8)
    }

    /// A template with a mirror in it records mirrored frames: ffmpeg's hflip of the first
    /// frame matches the built-in pipeline's first frame, and the unflipped one does not.
    @Test func customTemplateIsUsed() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let template = folder.path("mirror.pipeline")
        try Self.builtInTemplate().replacingOccurrences(of: "! tee name=t", with: "! videoflip video-direction=horiz ! tee name=t")
            .write(toFile: template, atomically: true, encoding: .utf8)
        let printed = try CamrecBinary.run(["--device", "test", "--size", "320x240", "--pipeline", template, "--print-pipeline", folder.path("m.mkv")])
        #expect(printed.status == 0, "\(printed.stderr)")
        #expect(printed.stdoutText.contains("videoflip video-direction=horiz"))
        let mirrored = folder.path("mirrored.mkv"), plain = folder.path("plain.mkv")
        for (output, extra) in [(mirrored, ["--pipeline", template]), (plain, [])] {
            let result = try CamrecBinary.run(["--device", "test", "--size", "320x240", "-t", "0.2"] + extra + [output])
            #expect(result.status == 0, "\(result.stderr)")
        }
        func psnr(_ filter: String) throws -> Double {
            let run = try ChildProcess.run("ffmpeg", ["-nostdin", "-v", "info", "-i", mirrored, "-i", plain, "-frames:v", "1",
                                                      "-lavfi", "[0:v]\(filter)[a];[a][1:v]psnr", "-f", "null", "-"])
            let line = run.stderr.split(separator: "\n").first { $0.contains("PSNR") } ?? ""
            let average = line.split(separator: " ").first { $0.hasPrefix("average:") }?.dropFirst("average:".count) ?? ""
            return average == "inf" ? 100 : Double(average) ?? 0
        }
        #expect(try psnr("hflip") > 35)
        #expect(try psnr("null") < 25)
    }

    @Test func templateWithoutItsPlaceholdersIsAUsageError() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let template = folder.path("broken.pipeline")
        try Self.builtInTemplate().replacingOccurrences(of: "{output}", with: "mp4mux ! filesink location=/tmp/elsewhere.mp4")
            .write(toFile: template, atomically: true, encoding: .utf8)
        let result = try CamrecBinary.run(["--device", "test", "-t", "1", "--pipeline", template, folder.path("m.mp4")])
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains("{output}"), "\(result.stderr)")
        #expect(folder.contents == ["broken.pipeline"])
        let missing = try CamrecBinary.run(["--device", "test", "-t", "1", "--pipeline", folder.path("none.pipeline"), folder.path("m.mp4")])
        #expect(missing.status == 64, "\(missing.stderr)")
    }
}

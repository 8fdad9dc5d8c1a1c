import Foundation
import Testing

/// The command line as people type it: `camrec help`, mistyped subcommands, bundled short
/// flags and the help text's exit-code table.
@Suite struct CliTests {
    @Test(arguments: [
        ([], "USAGE: camrec [record] [options] OUTPUT"),
        (["record"], "USAGE: camrec [record] [options] OUTPUT"),
        (["trim"], "USAGE: camrec trim"),
        (["still"], "USAGE: camrec still"),
        (["devices"], "USAGE: camrec devices"),
        (["ctl"], "USAGE: camrec ctl"),
    ])
    func helpSubcommandPrintsHelp(_ subcommand: [String], usage: String) throws {
        let result = try CamrecBinary.run(["help"] + subcommand)
        #expect(result.status == 0, "\(result.stderr)")
        // Issue 32 item 4: what it does first, then the usage line.
        #expect(result.stdoutText.components(separatedBy: "\n\n").dropFirst().first?.hasPrefix(usage) == true, "\(result.stdoutText)")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
    }

    /// Issue 29 item 11: `ctl` refuses what it would otherwise ignore (exit 64, before it
    /// connects: no recorder needs to run), instead of doing something else and saying ok.
    @Test(arguments: [
        (["still", "/tmp/x.jpg"], "--stills pattern"),
        (["status", "foo"], "status takes no argument"),
        (["stop", "now"], "stop takes no argument"),
        (["split", "2"], "split takes no argument"),
        (["frobnicate"], "unknown command 'frobnicate'"),
    ])
    func item11_ctlRefusesArgumentsItWouldIgnore(_ words: [String], says: String) throws {
        let result = try CamrecBinary.run(["ctl", "/tmp/camrec-no-such-socket"] + words)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains(says), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test func helpForAnUnknownSubcommandIsAUsageError() throws {
        let result = try CamrecBinary.run(["help", "recrod"])
        #expect(result.status == 64)
        #expect(result.stderr == "camrec: unknown subcommand 'recrod': did you mean 'record'? (see camrec --help)\n", "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test(arguments: [
        (["recrod", "x.mp4"], "record"),
        (["devcies"], "devices"),
        (["stil", "x.jpg"], "still"),
        (["trm", "--start", "1", "in.mp4"], "trim"),
        (["Trim", "in.mp4"], "trim"),
        (["hlep"], "help"),
    ])
    func mistypedSubcommandIsNamed(_ arguments: [String], meant: String) throws {
        let result = try CamrecBinary.run(arguments)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr == "camrec: unknown subcommand '\(arguments[0])': did you mean '\(meant)'? (see camrec --help)\n",
                "\(result.stderr)")
    }

    /// A first word with a dot or a slash is an OUTPUT (record is the default subcommand), even
    /// when it looks like a subcommand: no suggestion then.
    @Test(arguments: ["recrod.mp4", "./recrod", "recrod.txt"])
    func plausibleOutputIsNotTakenForASubcommand(_ output: String) throws {
        let result = try CamrecBinary.run(["--device", "test", "--print-pipeline", output])
        #expect(!result.stderr.contains("subcommand"), "\(result.stderr)")
        #expect(result.status == (output.hasSuffix(".mp4") ? 0 : 64), "\(result.stderr)")
    }

    /// A keyframe every second for one movie, every half second with --segment (splitmuxsink
    /// holds back a GOP, which a power cut would lose), and what --keyframe-interval asks for.
    @Test(arguments: [([String](), 30), (["--segment", "10m"], 15), (["--segment", "10m", "-g", "2s"], 60), (["-g", "0.5"], 15)])
    func keyframeIntervalDependsOnSegments(_ extra: [String], _ gop: Int) throws {
        let result = try CamrecBinary.run(["--device", "test", "--fps", "30", "--print-pipeline"] + extra + ["/tmp/camrec-never.mp4"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdoutText.contains("key-int-max=\(gop) "), "\(result.stdoutText)")
    }

    /// `-qf` is `-q -f`: quiet and replace the existing photo.
    @Test func bundledShortFlags() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let photo = folder.path("p.jpg")
        try Data("old".utf8).write(to: URL(fileURLWithPath: photo))
        let result = try CamrecBinary.run(["still", "-qf", "--device", "test", "--size", "320x240", "--settle", "0", photo])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        #expect(try MediaProbe.probe(photo).codec == "mjpeg")
        let valueInBundle = try CamrecBinary.run(["still", "-qd", "test", photo])
        #expect(valueInBundle.status == 64)
        #expect(valueInBundle.stderr.contains("-d"), "\(valueInBundle.stderr)")
    }

    /// Every row of the exit-code table: the code right after two spaces, the meaning in one
    /// column, continuation lines indented to that column, nothing past 80 columns.
    @Test(arguments: [[], ["trim"]])
    func exitCodeTableIsAligned(_ subcommand: [String]) throws {
        let result = try CamrecBinary.run(subcommand + ["--help"])
        #expect(result.status == 0)
        let lines = result.stdoutText.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let start = try #require(lines.firstIndex(of: "Exit codes:"))
        let table = lines[(start + 1)...].prefix { !$0.isEmpty }
        var codes: [String] = []
        var column: Int?
        for line in table {
            #expect(line.count <= 80, "\(line)")
            let body = line.drop { $0 == " " }
            let indent = line.count - body.count
            if let first = body.first, first.isNumber {
                #expect(indent == 2, "\(line)")
                let code = body.prefix { $0.isNumber }
                codes.append(String(code))
                let meaningAt = indent + code.count + body.dropFirst(code.count).prefix { $0 == " " }.count
                if let column { #expect(meaningAt == column, "\(line)") } else { column = meaningAt }
            } else {
                #expect(indent == column, "continuation not under the meanings: \(line)")
            }
        }
        // trim lists only the codes it can return.
        let expected = subcommand == ["trim"] ? ["0", "1", "64", "65", "69", "73", "74", "130"]
            : ["0", "1", "64", "65", "66", "69", "73", "74", "75", "77", "79", "130"]
        #expect(codes == expected)
    }
}

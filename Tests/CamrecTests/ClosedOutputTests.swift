import Foundation
import Testing

/// A reader that goes away (`| head -1`, `| true`, `2>&-`, a closed terminal) must never
/// cost a frame: camrec stops writing there, finishes the movie and exits normally.
/// Each case runs camrec through a real shell pipeline, as a script would.
@Suite(.serialized) struct ClosedOutputTests {
    /// How camrec's output is wired, and when the reader goes away.
    static let pipelines: [(name: String, shell: String)] = [
        ("stdout with --json, closed after the first line (mid-recording)", #"$CAMREC --json ARGS | head -1 >/dev/null"#),
        ("stdout with --json, closed before the first frame", #"$CAMREC --json ARGS | true"#),
        ("stdout with --json, closed descriptor", #"$CAMREC --json ARGS >&-"#),
        ("stdout without --json, closed before the first frame", #"$CAMREC ARGS | true"#),
        ("stderr, closed after 10 bytes", #"$CAMREC ARGS 2>&1 >/dev/null | head -c 10 >/dev/null"#),
        ("stderr, closed descriptor", #"$CAMREC ARGS 2>&-"#),
        ("stderr, closed when finalising begins", #"$CAMREC ARGS 2>&1 >/dev/null | sed -n '/stopping/q'"#),
        ("stdout with --json and stderr, closed when finalising begins", #"$CAMREC --json ARGS 2>&1 | sed -n '/stopping/q'"#),
        ("stdout and stderr both closed", #"$CAMREC --json ARGS 2>&- >&-"#),
    ]

    @Test(arguments: 0..<pipelines.count)
    func closedReaderKeepsTheMovie(index: Int) throws {
        let (name, template) = Self.pipelines[index]
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let output = folder.path("movie.mp4")
        let statusFile = folder.path("status")
        // One second is enough: every reader goes away before camrec stops (or never reads).
        let arguments = "--device test --size 320x240 --fps 30 --max-duration 1 '\(output)'"
        // PIPESTATUS[0] is camrec's own exit status, whatever the reader did.
        let script = template.replacingOccurrences(of: "ARGS", with: arguments)
            + "; echo ${PIPESTATUS[0]} > '\(statusFile)'"
        var environment = ProcessInfo.processInfo.environment
        environment["CAMREC"] = CamrecBinary.url.path
        let shell = try ChildProcess.run("/bin/bash", ["-c", script], environment: environment, timeout: 60)
        #expect(!shell.timedOut, "\(name): timed out")
        let status = try String(contentsOfFile: statusFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(status == "0", "\(name): camrec exited with \(status) (a crash is 132, SIGPIPE 141): \(shell.stderr)")
        #expect(folder.contents == ["movie.mp4", "status"], "\(name): left \(folder.contents)")
        let probe = try MediaProbe.probe(output)
        #expect(probe.frames == 30, "\(name): \(probe.frames) frames, want 30")
        #expect(!(try MediaProbe.topLevelBoxes(output)).contains("moof"), "\(name): not finalised")
    }

    /// A terminal that is closed while recording in the foreground (`tmux kill-pane`)
    /// hangs up: SIGHUP, then EIO on every write to it. docs/recording.md promises that SIGHUP
    /// finalises the file; it must also when nobody can see camrec's output any more.
    @Test func closedTerminalFinalisesTheMovie() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let output = folder.path("movie.mp4")
        let typescript = folder.path("typescript")
        // Killing script(1) closes the terminal's master side.
        let terminal = try PseudoTerminal.start(camrec: ["--device", "test", "--size", "320x240", "--max-duration", "none", output],
                                                typescript: typescript)
        // The progress line is on the terminal: camrec is recording and writing to it.
        let recording = Wait.until(timeout: 30) {
            let shown = (try? String(contentsOfFile: typescript, encoding: .utf8)) ?? ""
            return shown.contains("●") && shown.contains(" fps")
        }
        try #require(recording, "no progress line on the terminal")
        kill(terminal.processIdentifier, SIGKILL)
        terminal.waitUntilExit()
        let finished = Wait.until(timeout: 30) {
            FileManager.default.fileExists(atPath: output) && !folder.contents.contains { $0.contains(".partial") }
        }
        #expect(finished, "after the hang-up the folder holds \(folder.contents)")
        let probe = try MediaProbe.probe(output)
        #expect(probe.frames > 0)
        #expect(try MediaProbe.decodeErrors(output).isEmpty)
        #expect(!(try MediaProbe.topLevelBoxes(output)).contains("moof"), "not finalised")
    }
}

import Foundation
import Testing
import TestSupport

/// Issue 35 item 1, end to end: `--on-file` runs a command for every finished file, never
/// holds up the recording, never lets a file name run a command, keeps retention off the
/// files it still has, and finishes after a killed run.
@Suite(.serialized) struct OnFileTests {
    private func hookLines(_ lines: [[String: Any]]) -> [[String: Any]] { lines.filter { $0["type"] as? String == "hook" } }

    @Test func everySegmentIsCopiedAndNoneIsDeletedBeforeItsCommandEnded() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let copies = folder.path("copies")
        try FileManager.default.createDirectory(atPath: copies, withIntermediateDirectories: true)
        // An upload slower than a segment: retention finds files whose command still runs.
        let upload = "sh -c 'sleep 1; cp \"$CAMREC_FILE\" \(copies)/'"
        let result = try CamrecBinary.run(["--device", "test", "--size", "320x240", "--fps", "30", "--max-duration", "5s",
                                           "--segment", "0.5", "--keep", "3", "--on-file", upload, "--json", folder.path("cam.mp4")],
                                          timeout: 180)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = JSONLines.parse(result)
        let segments = lines.filter { $0["type"] as? String == "segment" }.compactMap { $0["path"] as? String }
        #expect(segments.count == 10, "\(segments)")
        let hooks = hookLines(lines)
        #expect(Set(hooks.compactMap { $0["file"] as? String }) == Set(segments))
        #expect(hooks.allSatisfy { $0["exit_status"] as? Int == 0 && $0["timed_out"] as? Bool == false && $0["kind"] as? String == "segment" })
        // Every segment was copied whole.
        for path in segments {
            let copy = copies + "/" + (path as NSString).lastPathComponent
            #expect((try? MediaProbe.probe(copy).frames) == 15, "\(copy)")
        }
        // No deleted line before its file's hook line; retention did delete, and kept 3.
        let order = lines.compactMap { line -> (String, String)? in
            guard let type = line["type"] as? String, type == "hook" || type == "deleted" else { return nil }
            return (type, (line["file"] ?? line["path"]) as? String ?? "")
        }
        let deleted = order.filter { $0.0 == "deleted" }
        #expect(deleted.count == 7, "\(order)")
        for (index, entry) in order.enumerated() where entry.0 == "deleted" {
            #expect(order[..<index].contains { $0.0 == "hook" && $0.1 == entry.1 }, "\(entry.1) deleted before its command ended")
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.hasSuffix(".mp4") }
        #expect(left.count == 3, "\(left)")
        #expect(!FileManager.default.fileExists(atPath: folder.path(".cam.mp4.on-file")))
    }

    @Test func aHangingCommandIsStoppedAtItsLimitAndTheRunLosesNoFrame() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let groups = folder.path("groups")
        // The command starts a child and waits for it: the whole group must go.
        let hang = "sh -c 'echo $$ >> \(groups); sleep 600 & wait'"
        let result = try CamrecBinary.run(["--device", "test", "--size", "320x240", "--fps", "30", "--max-duration", "3s",
                                           "--segment", "1s", "--on-file", hang, "--on-file-timeout", "1s", "--json",
                                           folder.path("cam.mp4")], timeout: 180)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = JSONLines.parse(result)
        let hooks = hookLines(lines)
        #expect(hooks.count == 3, "\(hooks)")
        #expect(hooks.allSatisfy { $0["timed_out"] as? Bool == true && $0["signal"] as? Int == 15 })
        #expect(result.stderr.contains("stopped after"), "\(result.stderr)")
        // The movies: every frame of the 3 s.
        let final = try #require(lines.last)
        #expect(final["type"] as? String == "result")
        #expect(final["dropped_frames"] as? Int == 0)
        let movies = (final["files"] as? [[String: Any]] ?? []).compactMap { $0["path"] as? String }
        #expect(try movies.map { try MediaProbe.probe($0).frames }.reduce(0, +) == 90)
        // No process of the commands' groups is left.
        let pgids = try String(contentsOfFile: groups, encoding: .utf8).split(separator: "\n").compactMap { Int32($0) }
        #expect(pgids.count == 3)
        for group in pgids { #expect(Wait.until { kill(-group, 0) != 0 }, "group \(group) survived") }
    }

    @Test func noFileNameRunsACommand() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let marker = "pwned-\(UUID().uuidString.prefix(8))"
        let name = folder.path("a$(touch \(marker));touch \(marker);`touch \(marker)`b.mp4")
        // {file} as an argument, and CAMREC_FILE in a shell the user wrote, quoted.
        let result = try CamrecBinary.run(["--device", "test", "--size", "320x240", "--max-duration", "1s", "--still-every", "0.5",
                                           "--on-file", "sh -c 'cp \"$1\" \"$1.copy\"; cat > \"$CAMREC_FILE.json\"' sh {file}",
                                           "--json", name], timeout: 120)
        #expect(result.status == 0, "\(result.stderr)")
        let hooks = hookLines(JSONLines.parse(result))
        // The movie and its still(s).
        #expect(hooks.count >= 2, "\(hooks)")
        #expect(hooks.contains { $0["kind"] as? String == "movie" && $0["file"] as? String == name })
        #expect(hooks.allSatisfy { $0["exit_status"] as? Int == 0 })
        #expect((try? MediaProbe.probe(name + ".copy").frames) == 30)
        // The movie's JSON line on standard input names it.
        let line = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: name + ".json"))) as? [String: Any]
        #expect(line?["type"] as? String == "movie")
        #expect(line?["path"] as? String == name)
        for place in [folder.url.path, FileManager.default.currentDirectoryPath] {
            #expect(!FileManager.default.fileExists(atPath: place + "/" + marker), "a file name ran a command")
        }
    }

    @Test func aRunKilledWithCommandsPendingLeavesThemToTheNextRun() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let output = folder.path("cam.mp4")
        let ledger = folder.path(".cam.mp4.on-file")
        let groups = folder.path("groups")
        // One command at a time, and it never ends: the files queue up.
        let first = try CamrecBinary.start(["--device", "test", "--size", "320x240", "--max-duration", "none", "--segment", "0.5",
                                            "--on-file", "sh -c 'echo $$ >> \(groups); exec sleep 600'", "--on-file-jobs", "1",
                                            "--json", output])
        let listed = { () -> Int in ((try? String(contentsOfFile: ledger, encoding: .utf8)) ?? "").split(separator: "\n").count }
        #expect(first.waitForLines(type: "segment", count: 3), "\(first.stderrText)")
        #expect(Wait.until(timeout: 60) { listed() >= 3 }, "ledger: \(listed())")
        first.signal(SIGKILL)
        _ = first.wait()
        // The killed run's command goes on (its own group): end it as its owner would.
        for group in ((try? String(contentsOfFile: groups, encoding: .utf8)) ?? "").split(separator: "\n").compactMap({ Int32($0) }) {
            kill(-group, SIGKILL)
        }
        let pending = try String(contentsOfFile: ledger, encoding: .utf8).split(separator: "\n")
            .compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            .compactMap { $0["path"] as? String }
        #expect(pending.count >= 3)
        let copies = folder.path("copies")
        try FileManager.default.createDirectory(atPath: copies, withIntermediateDirectories: true)
        let second = try CamrecBinary.run(["--device", "test", "--size", "320x240", "--max-duration", "1s", "--segment", "0.5",
                                           "--on-file", "cp {file} \(copies)/", "--json", output], timeout: 120)
        #expect(second.status == 0, "\(second.stderr)")
        let hooks = hookLines(JSONLines.parse(second))
        let earlier = hooks.filter { $0["earlier_run"] as? Bool == true }.compactMap { $0["file"] as? String }
        #expect(Set(earlier) == Set(pending), "\(hooks)")
        // They ran first, and every file of both runs is copied.
        #expect(hooks.prefix(pending.count).allSatisfy { $0["earlier_run"] as? Bool == true })
        for path in pending + hooks.compactMap({ $0["file"] as? String }) {
            #expect(FileManager.default.fileExists(atPath: copies + "/" + (path as NSString).lastPathComponent), "\(path)")
        }
        #expect(second.stderr.contains("an earlier run left unfinished"), "\(second.stderr)")
        #expect(!FileManager.default.fileExists(atPath: ledger))
    }

    @Test func aStopWhileWaitingForTheCommandsLeavesThemToTheNextRun() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let output = folder.path("cam.mp4")
        let groups = folder.path("groups")
        // Commands that would run for ten minutes: the end's wait is given up by a second stop.
        let run = try CamrecBinary.start(["--device", "test", "--size", "320x240", "--max-duration", "none", "--segment", "0.5",
                                          "--on-file", "sh -c 'echo $$ >> \(groups); exec sleep 600'", "--on-file-jobs", "1",
                                          "--json", output])
        defer {
            if run.process.isRunning { run.signal(SIGKILL) }
            for group in ((try? String(contentsOfFile: groups, encoding: .utf8)) ?? "").split(separator: "\n").compactMap({ Int32($0) }) {
                kill(-group, SIGKILL)
            }
        }
        #expect(run.waitForLines(type: "segment", count: 2), "\(run.stderrText)")
        run.signal(SIGINT)
        #expect(Wait.until(timeout: 60) { run.stderrText.contains("stop again to leave them for the next run") }, "\(run.stderrText)")
        run.signal(SIGINT)
        #expect(run.wait(timeout: 120) == 0, "\(run.stderrText)")
        // Every segment is in place; none's command ended; all are listed for the next run.
        let segments = run.lines(type: "segment").compactMap { $0["path"] as? String }
        #expect(segments.count >= 3 && run.lines(type: "hook").isEmpty, "\(run.jsonLines)")
        let listed = try String(contentsOfFile: folder.path(".cam.mp4.on-file"), encoding: .utf8).split(separator: "\n")
            .compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            .compactMap { $0["path"] as? String }
        #expect(Set(listed) == Set(segments), "\(listed) \(segments)")
        #expect(run.stderrText.contains("left for the next run"), "\(run.stderrText)")
        #expect(run.jsonLines.last?["type"] as? String == "result")
    }

    @Test func trimAndExportRunTheCommandForTheMovieTheyWrite() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let series = folder.path("cam.mp4")
        let recorded = try CamrecBinary.run(["--device", "test", "--size", "320x240", "--max-duration", "1.5", "--segment", "0.5",
                                             "--json", series], timeout: 120)
        try #require(recorded.status == 0, "\(recorded.stderr)")
        let save = "sh -c 'cat > \"$CAMREC_FILE.json\"; echo \"$CAMREC_KIND $CAMREC_FRAMES\" > \"$CAMREC_FILE.env\"'"
        let trimmed = folder.path("cut.mp4")
        let trim = try CamrecBinary.run(["trim", "--start", "0.2", "-o", trimmed, "--on-file", save, "--json", folder.path("cam-0001.mp4")])
        #expect(trim.status == 0, "\(trim.stderr)")
        let trimHook = hookLines(JSONLines.parse(trim))
        #expect(trimHook.count == 1 && trimHook.first?["file"] as? String == trimmed && trimHook.first?["kind"] as? String == "trim", "\(trimHook)")
        let frames = try MediaProbe.probe(trimmed).frames
        #expect(try String(contentsOfFile: trimmed + ".env", encoding: .utf8) == "trim \(frames)\n")
        let trimLine = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: trimmed + ".json"))) as? [String: Any]
        #expect(trimLine?["type"] as? String == "result" && trimLine?["output"] as? String == trimmed, "\(String(describing: trimLine))")
        let exported = folder.path("all.mp4")
        let export = try CamrecBinary.run(["export", "-o", exported, "--on-file", save, "--json", series])
        #expect(export.status == 0, "\(export.stderr)")
        let exportHook = hookLines(JSONLines.parse(export))
        #expect(exportHook.count == 1 && exportHook.first?["kind"] as? String == "export" && exportHook.first?["exit_status"] as? Int == 0,
                "\(exportHook)")
        #expect(try String(contentsOfFile: exported + ".env", encoding: .utf8) == "export 45\n")
        let exportLine = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: exported + ".json"))) as? [String: Any]
        #expect(exportLine?["type"] as? String == "export" && exportLine?["path"] as? String == exported)
    }
}

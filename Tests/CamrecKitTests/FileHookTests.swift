import Foundation
import Synchronization
import Testing
import TestSupport
@testable import CamrecKit
@testable import Hooks
@testable import CamrecCore

/// `--on-file`: the command's words, the file's environment, one command's run (exit,
/// standard error, time limit over a whole process group) and the queue (at most N at once,
/// held from retention, listed in the ledger until done, resumed by the next run).
@Suite struct FileHookTests {
    /// A scratch folder of the test's own.
    private struct TemporaryFolder {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("camrec-hooks-\(UUID().uuidString)").path
        init() throws {
            // As camrec's main does: a command that exits without reading its input must not
            // kill the writer (every test here starts commands).
            StandardStream.ignoreBrokenPipe()
            try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        }
        func path(_ name: String) -> String { root + "/" + name }
        func remove() { try? FileManager.default.removeItem(atPath: root) }
    }

    // MARK: The command's words

    @Test func wordsAreSplitAsAShellSplitsThemAndNothingElse() throws {
        #expect(try HookCommand.parse("rclone  copy {file} remote:cam/", option: "--on-file").words == ["rclone", "copy", "{file}", "remote:cam/"])
        #expect(try HookCommand.parse(#"sh -c 'cp "$1" /x; echo $(date)' sh {file}"#, option: "--on-file").words
                == ["sh", "-c", #"cp "$1" /x; echo $(date)"#, "sh", "{file}"])
        #expect(try HookCommand.parse(#"a "b \"c\" \\ $d" e\ f ''"#, option: "--on-file").words == ["a", #"b "c" \ $d"#, "e f", ""])
        // Nothing a shell would do: `;`, `|`, `$(…)` and globs are plain characters.
        #expect(try HookCommand.parse("echo a;b|c $(x) *", option: "--on-file").words == ["echo", "a;b|c", "$(x)", "*"])
        for bad in ["", "   ", "echo 'open", #"echo "open"#, "echo trailing\\"] {
            #expect(throws: CamrecError.self, "\(bad)") { try HookCommand.parse(bad, option: "--on-file") }
        }
    }

    @Test func fileTakesTheWholePathAsOneArgumentWhateverItHolds() throws {
        let command = try HookCommand.parse("cp {file} dest/{file}.bak", option: "--on-file")
        let name = "a b;$(touch x)'\".mp4"
        #expect(command.arguments(for: name) == ["cp", name, "dest/" + name + ".bak"])
    }

    @Test func aProgramThatCannotBeFoundIsAUsageError() throws {
        #expect(try HookCommand.parse("sh -c true", option: "--on-file").program(path: "/usr/bin:/bin") != nil)
        let missing = try HookCommand.parse("no-such-camrec-hook {file}", option: "--on-file")
        let error = #expect(throws: CamrecError.self) { try missing.check(path: "/usr/bin:/bin") }
        #expect(error?.status == .usage)
        #expect(error?.message.contains("no program no-such-camrec-hook in PATH") == true)
        #expect(throws: CamrecError.self) { try HookCommand.parse("/etc/passwd", option: "--on-file").check(path: nil) }
        #expect(throws: CamrecError.self) { try HookSettings.resolve(command: nil, jobs: "2", timeout: nil, path: nil) }
        #expect(throws: CamrecError.self) { try HookSettings.resolve(command: "true", jobs: "0", timeout: nil, path: "/usr/bin:/bin") }
        #expect(throws: CamrecError.self) { try HookSettings.resolve(command: "true", jobs: nil, timeout: "0", path: "/usr/bin:/bin") }
        let settings = try HookSettings.resolve(command: "true", jobs: "3", timeout: "90s", path: "/usr/bin:/bin")
        #expect(settings?.jobs == 3)
        #expect(settings?.timeout == .seconds(90))
    }

    // MARK: The file's environment

    @Test func startTimesAreReadFromCamrecsISO8601() {
        #expect(HookedFile.milliseconds(iso8601: "1970-01-01T00:00:01.250Z") == 1250)
        #expect(HookedFile.milliseconds(iso8601: "2026-12-01T11:04:30.250+01:00") == 1_796_119_470_250)
        #expect(HookedFile.milliseconds(iso8601: "2026-12-01T10:04:30.25Z") == 1_796_119_470_250)
        #expect(HookedFile.milliseconds(iso8601: "2026-12-01T10:04:30.2509Z") == 1_796_119_470_250)
        #expect(HookedFile.milliseconds(iso8601: "2026-12-01T10:04:30-00:30") == 1_796_121_270_000)
        for bad in ["", "2026-12-01", "2026-12-01T10:04:30", "2026-12-01T10:04:30+0100", "x026-12-01T10:04:30Z"] {
            #expect(HookedFile.milliseconds(iso8601: bad) == nil, "\(bad)")
        }
    }

    @Test func theEnvironmentSaysWhatIsKnown() {
        var file = ResultFile(path: "/v/cam-0002.mp4", kind: "movie", duration: 1.5, frames: 45, bytes: 10)
        file.start = "1970-01-01T00:00:02.000Z"
        let hooked = HookedFile(file, kind: "segment", camera: "/dev/video0", series: "/v/cam.mp4")
        #expect(hooked.environment == ["CAMREC_FILE=/v/cam-0002.mp4", "CAMREC_KIND=segment", "CAMREC_START=2000",
                                       "CAMREC_DURATION=1.500", "CAMREC_FRAMES=45", "CAMREC_CAMERA=/dev/video0",
                                       "CAMREC_SERIES=/v/cam.mp4"])
        #expect(hooked.line.hasPrefix(#"{"type":"segment","#))
        #expect(hooked.line.contains(#""path":"/v/cam-0002.mp4""#))
        let still = HookedFile(path: "s.jpg", kind: "still", line: "{}")
        #expect(still.environment == ["CAMREC_FILE=s.jpg", "CAMREC_KIND=still"])
    }

    // MARK: One command

    private func process(_ script: String, input: String = "", timeout: Duration = .seconds(60)) -> HookProcess {
        // As camrec's main does: a command that exits without reading its input must not
        // kill the writer.
        StandardStream.ignoreBrokenPipe()
        return HookProcess(arguments: ["sh", "-c", script, "hook"], environment: ["PATH=/usr/bin:/bin", "GIVEN=yes"],
                    input: Array(input.utf8), timeout: timeout)
    }

    @Test func aCommandGetsItsInputAndEnvironmentAndReportsItsExitAndStandardError() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let out = folder.path("got")
        let outcome = process(#"cat > "$0.in"; echo "$GIVEN" > "$0.env"; echo one >&2; echo two >&2; exit 7"#.replacingOccurrences(of: "$0", with: out),
                              input: "{\"type\":\"still\"}\n").run()
        #expect(outcome.exitStatus == 7)
        #expect(outcome.signal == nil)
        #expect(!outcome.timedOut)
        #expect(!outcome.succeeded)
        #expect(outcome.stderrTail == "one\ntwo")
        #expect(try String(contentsOfFile: out + ".in", encoding: .utf8) == "{\"type\":\"still\"}\n")
        #expect(try String(contentsOfFile: out + ".env", encoding: .utf8) == "yes\n")
        #expect(process("exit 0").run().succeeded)
    }

    @Test func aCommandSeesNoneOfCamrecsDescriptorsAndDefaultSignals() throws {
        // A descriptor camrec holds open (a camera, a movie) without close-on-exec.
        let held = open("/dev/null", O_RDONLY)
        defer { close(held) }
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let out = folder.path("fds")
        // Only 0, 1, 2 (and the descriptor ls opens for the listing) are open in the command.
        let outcome = process("ls /proc/self/fd > \(out); grep -E '^(SigBlk|SigIgn)' /proc/self/status >> \(out)").run()
        #expect(outcome.succeeded)
        let lines = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n")
        let descriptors = lines.compactMap { Int($0) }
        #expect(!descriptors.contains(Int(held)), "\(lines)")
        #expect(descriptors.filter { $0 > 3 }.isEmpty, "\(lines)")
        #expect(lines.contains("SigBlk:\t0000000000000000"), "\(lines)")
        // None ignored but glibc's own two (32 and 33, its threads' internal signals).
        let ignored = lines.first { $0.hasPrefix("SigIgn:") }.flatMap { UInt64($0.dropFirst(7).trimmingCharacters(in: .whitespaces), radix: 16) }
        #expect(ignored.map { $0 & ~UInt64(0x1_8000_0000) } == 0, "\(lines)")
    }

    @Test func aCommandPastItsTimeLimitIsStoppedWithItsWholeProcessGroup() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let pids = folder.path("pids")
        // The shell starts a child and waits: both must go.
        let outcome = process("sleep 600 & echo $$ $! > \(pids); echo waiting >&2; wait", timeout: .milliseconds(500)).run()
        #expect(outcome.timedOut)
        #expect(outcome.signal == SIGTERM)
        #expect(outcome.stderrTail == "waiting")
        let numbers = try String(contentsOfFile: pids, encoding: .utf8).split(separator: " ").compactMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        try #require(numbers.count == 2)
        // The child is gone (or a zombie of init's, never still sleeping).
        #expect(Wait.until { kill(numbers[1], 0) != 0 || Self.state(numbers[1]) == "Z" }, "sleep \(numbers[1]) survived")
        // One that ignores SIGTERM gets SIGKILL after the grace.
        let stubborn = process("trap '' TERM; echo $$ > \(pids); while :; do sleep 1; done", timeout: .milliseconds(300)).run()
        #expect(stubborn.timedOut)
        #expect(stubborn.signal == SIGKILL)
    }

    @Test func aCommandThatCannotStartSaysWhy() {
        let outcome = HookProcess(arguments: ["/no/such/program"], environment: [], input: [], timeout: .seconds(5)).run()
        #expect(outcome.failure?.contains("cannot start /no/such/program") == true)
        #expect(outcome.exitStatus != 0)
    }

    private static func state(_ pid: Int32) -> String? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = text.lastIndex(of: ")") else { return nil }
        return text[text.index(close, offsetBy: 2)...].split(separator: " ").first.map(String.init)
    }

    // MARK: The queue

    @Test func theQueueRunsAtMostNAtOnceHoldsEachFileAndListsItUntilDone() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let gate = folder.path("gate")
        let started = folder.path("started")
        // Each command says it started, then waits for the test to open the gate.
        let command = try HookCommand.parse("sh -c 'echo \"$CAMREC_FILE\" >> \(started); cut -d\" \" -f19 /proc/$$/stat > \"$CAMREC_FILE.nice\"; while [ ! -e \(gate) ]; do sleep 0.05; done'",
                                            option: "--on-file")
        let lines = Mutex<[HookLine]>([])
        let holds = FileHolds()
        let series = folder.path("cam.mp4")
        let hooks = HookQueue(settings: HookSettings(command: command, jobs: 2, timeout: .seconds(120)), ledgerFor: series,
                              holds: holds, report: { line in lines.withLock { $0.append(line) } }, warn: { _ in })
        let files = (1...5).map { folder.path("cam-000\($0).mp4") }
        for file in files {
            FileManager.default.createFile(atPath: file, contents: Data())
            hooks.enqueue(HookedFile(path: file, kind: "segment", line: "{}"))
        }
        let ledger = HookLedger(series: series)
        #expect(ledger.path == folder.path(".cam.mp4.on-file"))
        // Two run, three wait; all five are held and listed.
        #expect(Wait.until { ((try? String(contentsOfFile: started, encoding: .utf8)) ?? "").split(separator: "\n").count == 2 })
        #expect(Wait.until { Set(ledger.load(warn: { _ in }).map(\.path)) == Set(files) })
        #expect(files.allSatisfy { holds.isHeld($0) })
        #expect(((try? String(contentsOfFile: started, encoding: .utf8)) ?? "").split(separator: "\n").count == 2)
        FileManager.default.createFile(atPath: gate, contents: Data())
        hooks.finish()
        #expect(lines.withLock { $0.count } == 5)
        #expect(lines.withLock { $0.allSatisfy { $0.succeeded } })
        // In the order they came (two at a time).
        let order = try String(contentsOfFile: started, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(Set(order.prefix(2)) == Set(files.prefix(2)))
        #expect(holds.paths.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: ledger.path))
        // Each ran at nice 10 or more (field 19 of /proc/PID/stat; more when the test runs niced).
        for file in files {
            let nice = (try? String(contentsOfFile: file + ".nice", encoding: .utf8)).flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            #expect((nice ?? 0) >= 10, "\(file): nice \(String(describing: nice))")
        }
    }

    @Test func filesLeftInTheLedgerRunFirstInTheNextRun() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let series = folder.path("cam.mp4")
        let left = [folder.path("cam-0001.mp4"), folder.path("cam-0002.mp4")]
        for file in left { FileManager.default.createFile(atPath: file, contents: Data()) }
        // A run killed with two files' commands not done; the second file is gone since.
        let gone = folder.path("cam-0000.mp4")
        try HookLedger(series: series).save([HookedFile(path: gone, kind: "segment", line: "{}")]
                                            + left.map { HookedFile(path: $0, kind: "segment", start: 5, line: "{\"type\":\"segment\"}") })
        let ran = folder.path("ran")
        let command = try HookCommand.parse("sh -c 'echo \"$CAMREC_FILE $CAMREC_START\" >> \(ran)'", option: "--on-file")
        let lines = Mutex<[HookLine]>([])
        let warnings = Mutex<[String]>([])
        let hooks = HookQueue(settings: HookSettings(command: command, jobs: 1), ledgerFor: series, holds: FileHolds(),
                              report: { line in lines.withLock { $0.append(line) } }, warn: { text in warnings.withLock { $0.append(text) } })
        hooks.resumeEarlierRuns()
        let new = folder.path("cam-0003.mp4")
        hooks.enqueue(HookedFile(path: new, kind: "segment", line: "{}"))
        hooks.finish()
        #expect(try String(contentsOfFile: ran, encoding: .utf8) == "\(left[0]) 5\n\(left[1]) 5\n\(new) \n")
        #expect(lines.withLock { $0.map(\.earlierRun) } == [true, true, nil])
        #expect(warnings.withLock { $0.contains { $0.contains(gone) && $0.contains("gone") } })
        #expect(!FileManager.default.fileExists(atPath: HookLedger(series: series).path))
    }

    @Test func atTheEndQueuedCommandsWaitAtMostTheTimeLimitAndStayListed() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let series = folder.path("cam.mp4")
        let command = try HookCommand.parse("sleep 600", option: "--on-file")
        let lines = Mutex<[HookLine]>([])
        let warnings = Mutex<[String]>([])
        let hooks = HookQueue(settings: HookSettings(command: command, jobs: 1, timeout: .milliseconds(300)), ledgerFor: series,
                              holds: FileHolds(), report: { line in lines.withLock { $0.append(line) } },
                              warn: { text in warnings.withLock { $0.append(text) } })
        // More than the end's wait (0.3 s and the 3 s grace) lets run one at a time.
        let files = (1...20).map { folder.path("cam-\($0).mp4") }
        for file in files { hooks.enqueue(HookedFile(path: file, kind: "segment", line: "{}")) }
        hooks.finish()
        // Some were judged (stopped at their limit); what the end cut short stays listed.
        let reported = lines.withLock { $0 }
        #expect(reported.allSatisfy { $0.timedOut })
        let listed = HookLedger(series: series).load(warn: { _ in }).map(\.path)
        #expect(!listed.isEmpty)
        #expect(warnings.withLock { $0.contains { $0.contains("left for the next run") } })
        #expect(Set(listed).isSubset(of: Set(files)))
    }
}

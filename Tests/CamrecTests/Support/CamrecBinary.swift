import Foundation
import Synchronization
import Testing

/// The built `camrec` executable, run as a user would.
enum CamrecBinary {
    /// The binary beside the test bundle (swift build puts every product in one folder).
    static let url: URL = {
        let candidates = [Bundle.main.executableURL, URL(fileURLWithPath: CommandLine.arguments[0])]
            .compactMap { $0?.resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("camrec") }
            + [VirtualCameraEnvironment.packageRoot.appendingPathComponent(".build/debug/camrec")]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[0]
    }()

    /// Runs camrec to completion.
    static func run(_ arguments: [String], environment: [String: String]? = nil, timeout: TimeInterval = 60) throws -> ChildProcessResult {
        let result = try ChildProcess.run(url.path, arguments, environment: environment, timeout: timeout)
        JSONLog.record(arguments: arguments, stdout: result.stdout)
        return result
    }

    /// Starts camrec in the background, for tests that signal or kill it.
    static func start(_ arguments: [String], environment: [String: String]? = nil) throws -> RunningCamrec {
        try RunningCamrec(arguments: arguments, environment: environment)
    }
}

/// A camrec process running in the background; stdout goes to a file the test can read
/// while it runs (JSON lines).
final class RunningCamrec: @unchecked Sendable {
    let process = Process()
    let stdoutURL: URL
    let stderrURL: URL
    private let done = DispatchSemaphore(value: 0)
    private let arguments: [String]
    private let logged = NSLock()
    private var isLogged = false

    init(arguments: [String], environment: [String: String]?) throws {
        self.arguments = arguments
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("camrec-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        stdoutURL = scratch.appendingPathComponent("stdout")
        stderrURL = scratch.appendingPathComponent("stderr")
        FileManager.default.createFile(atPath: stdoutURL.path, contents: nil)
        FileManager.default.createFile(atPath: stderrURL.path, contents: nil)
        // As a shell would start it (see ChildProcess.cleanSignals): env execs camrec in place.
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ChildProcess.cleanSignals + [CamrecBinary.url.path] + arguments
        if let environment { process.environment = environment }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: stdoutURL)
        process.standardError = try FileHandle(forWritingTo: stderrURL)
        process.terminationHandler = { [done] _ in done.signal() }
        try process.run()
    }

    var pid: Int32 { process.processIdentifier }

    /// JSON lines printed so far, parsed.
    var jsonLines: [[String: Any]] { JSONLines.parse((try? Data(contentsOf: stdoutURL)) ?? Data()) }

    var stderrText: String { (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? "" }

    /// What it printed on stdout so far, as printed.
    var stdoutData: Data { (try? Data(contentsOf: stdoutURL)) ?? Data() }

    /// JSON lines of `type` printed so far.
    func lines(type: String) -> [[String: Any]] { jsonLines.filter { $0["type"] as? String == type } }

    /// Waits until `condition` holds for the JSON lines printed so far (true), or `timeout`
    /// passes or camrec exits without it holding (false). The bound is generous: a loaded
    /// 2-core machine is slow, never this slow.
    func waitUntil(timeout: TimeInterval = 60, _ condition: ([[String: Any]]) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition(jsonLines) { return true }
            // A line printed just before exiting is still seen.
            if !process.isRunning { return condition(jsonLines) }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return false
    }

    /// Waits until a JSON line of `type` appears (true) or `timeout` passes (false).
    func waitForLine(type: String, timeout: TimeInterval = 60) -> Bool {
        waitForLines(type: type, count: 1, timeout: timeout)
    }

    /// Waits until at least `count` JSON lines of `type` appear.
    func waitForLines(type: String, count: Int, timeout: TimeInterval = 60) -> Bool {
        waitUntil(timeout: timeout) { lines in lines.count { $0["type"] as? String == type } >= count }
    }

    func signal(_ number: Int32) { kill(pid, number) }

    /// Waits for exit; returns the exit status, or nil after `timeout` (the process is then killed).
    func wait(timeout: TimeInterval = 60) -> Int32? {
        defer { logOnce() }
        if done.wait(timeout: .now() + timeout) == .timedOut {
            kill(pid, SIGKILL)
            done.wait()
            return nil
        }
        return process.terminationReason == .exit ? process.terminationStatus : -process.terminationStatus
    }

    deinit {
        if !process.isRunning { logOnce() }
    }

    /// Hands what camrec printed to the JSON log, once, after it exited.
    private func logOnce() {
        let first = logged.withLock {
            defer { isLogged = true }
            return !isLogged
        }
        if first { JSONLog.record(arguments: arguments, stdout: (try? Data(contentsOf: stdoutURL)) ?? Data()) }
    }
}

/// Every camrec run's arguments and stdout, one file per run in the folder named by
/// `CAMREC_TEST_JSON_LOG` (scripts/test sets it): after the suite, scripts/check-json-lines
/// validates every JSON line the end-to-end tests made camrec print against
/// docs/events.schema.json. Nothing is written when the variable is not set.
enum JSONLog {
    static let folder: String? = ProcessInfo.processInfo.environment["CAMREC_TEST_JSON_LOG"].flatMap { $0.isEmpty ? nil : $0 }

    /// Adds one run to the log (when there is one).
    static func record(arguments: [String], stdout: Data) {
        guard let folder else { return }
        write(arguments: arguments, stdout: stdout, to: URL(fileURLWithPath: folder))
    }

    /// Writes one run's record into `folder`: the JSON array of its arguments on the first
    /// line, then its stdout as printed.
    static func write(arguments: [String], stdout: Data, to folder: URL) {
        var record = (try? JSONSerialization.data(withJSONObject: arguments)) ?? Data("[]".utf8)
        record.append(UInt8(ascii: "\n"))
        record.append(stdout)
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try? record.write(to: folder.appendingPathComponent("\(UUID().uuidString).run"))
    }
}

/// JSON lines on camrec's stdout.
enum JSONLines {
    static func parse(_ data: Data) -> [[String: Any]] {
        String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        }
    }

    static func parse(_ result: ChildProcessResult) -> [[String: Any]] { parse(result.stdout) }
}

/// A fresh temporary folder for one test, removed by the caller with `remove()`.
struct TemporaryFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("camrec-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// File names in the folder, sorted.
    var contents: [String] { ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted() }

    func remove() { try? FileManager.default.removeItem(at: url) }

    /// A folder shared by the tests of the whole run (an input made once), removed when the
    /// test process exits.
    static func forTheRun() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        RunFolders.add(folder.url.path)
        return folder
    }
}

/// The folders `TemporaryFolder.forTheRun()` made, removed at exit.
private enum RunFolders {
    private static let paths = Mutex<[String]?>(nil)

    static func add(_ path: String) {
        let first = paths.withLock { paths in
            defer { paths = (paths ?? []) + [path] }
            return paths == nil
        }
        if first { atexit { RunFolders.removeAll() } }
    }

    private static func removeAll() {
        for path in paths.withLock({ $0 ?? [] }) { try? FileManager.default.removeItem(atPath: path) }
    }
}

import Foundation
import Testing

/// What the VirtualCamera suites share: child processes with the library preloaded (never
/// this test process), scratch folders and small C programs compiled for a test.
protocol VirtualCameraHarness {}

extension VirtualCameraHarness {
    /// The environment of a child process that sees `devices`.
    func env(_ devices: [VirtualCameraDevice]) throws -> [String: String] {
        try VirtualCameraEnvironment.shared().environment(devices)
    }

    /// The same for a raw `CAMREC_VCAM` value (for keys `VirtualCameraDevice` does not know).
    /// A crash is reported at once: the Swift runtime that SwiftPM links into the library
    /// would otherwise spend up to 30 s writing a backtrace.
    func env(spec: String) throws -> [String: String] {
        var environment = try VirtualCameraEnvironment.shared().environment(spec: spec)
        environment["SWIFT_BACKTRACE"] = "enable=no"
        return environment
    }

    /// `gst-launch-1.0 -e PIPELINE` (arguments split at spaces) against `devices`.
    func gst(_ pipeline: String, devices: [VirtualCameraDevice] = [VirtualCameraDevice()],
             timeout: TimeInterval = 60) throws -> ChildProcessResult {
        try gst(pipeline, environment: env(devices), timeout: timeout)
    }

    /// The same against a raw `CAMREC_VCAM` value; `verbose` adds `-v` (property notifications
    /// such as fakesink's `last-message` on stdout); `extra` adds variables such as `GST_DEBUG`.
    func gst(_ pipeline: String, spec: String, verbose: Bool = false, extra: [String: String] = [:],
             timeout: TimeInterval = 60) throws -> ChildProcessResult {
        try gst(pipeline, environment: env(spec: spec).merging(extra) { $1 }, verbose: verbose, timeout: timeout)
    }

    private func gst(_ pipeline: String, environment: [String: String], verbose: Bool = false,
                     timeout: TimeInterval) throws -> ChildProcessResult {
        try ChildProcess.run("gst-launch-1.0", (verbose ? ["-v"] : []) + ["-e"]
                                 + pipeline.split(separator: " ").map(String.init),
                             environment: environment, timeout: timeout)
    }

    func expectSuccess(_ run: ChildProcessResult, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try #require(run.status == 0 && !run.timedOut, "exit \(run.status): \(run.stderr)\(run.stdoutText)",
                     sourceLocation: sourceLocation)
    }

    func expectStamps(_ url: URL, _ expected: [UInt32], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let stamps = try FrameStampReader.sequences(inVideo: url)
        #expect(stamps == expected.map { Optional($0) }, "stamps read: \(stamps.map { $0.map(String.init) ?? "?" })",
                sourceLocation: sourceLocation)
    }

    /// Runs `body` with a fresh folder that is removed afterwards.
    func withScratch(_ body: (URL) throws -> Void) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("camrec-vcam-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try body(dir)
    }

    /// Compiles one C file (`source`) into `dir` and returns the executable's path.
    func compileC(_ source: String, named name: String, in dir: URL, flags: [String] = []) throws -> String {
        let file = dir.appendingPathComponent("\(name).c"), binary = dir.appendingPathComponent(name)
        try source.write(to: file, atomically: true, encoding: .utf8)
        var errors = ""
        for compiler in ["cc", "clang", "gcc"] {
            let run = try ChildProcess.run(compiler, ["-std=gnu11", "-O1", file.path, "-o", binary.path] + flags)
            if run.status == 0 { return binary.path }
            errors += run.stderr
        }
        throw ChildProcess.LaunchFailure(description: "cannot compile \(name).c: \(errors)")
    }
}

import Foundation

/// A PulseAudio server of the test's own, in user space: no sound card, no kernel module.
/// It has null sinks (`vsink` stereo 48 kHz, and any asked for), whose `.monitor` sources
/// record what is played into them. Clients reach it through `environment` (its socket in
/// `PULSE_SERVER`, and a private `XDG_RUNTIME_DIR`/`HOME`, so no user's server is touched).
/// As root PulseAudio warns that it is not meant to run so, and works.
final class TestSoundServer: @unchecked Sendable {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// A null sink: `name` plays into it, `name.monitor` records from it.
    struct Sink: Sendable {
        var name: String
        var channels = 2
        var rate = 48000

        var argument: String { "module-null-sink sink_name=\(name) channels=\(channels) rate=\(rate)" }
    }

    /// The folder holding the socket, cookie and log; removed by `stop`.
    let folder: URL
    private let process: Process

    /// The server's socket, as `PULSE_SERVER` names it.
    var socket: String { "unix:" + folder.appendingPathComponent("pulse/native").path }

    /// Starts a server with `sinks` (the first is the default sink, its monitor the default
    /// source) and waits until it answers (`pactl info`).
    /// `modules`: more modules to load, e.g. `DriftingSoundCard.module(…)` (a pipe source
    /// fed by the test). Not `module-sine-source`: in this server it delivers 200 ms of
    /// sound every few seconds, far slower than real time.
    init(sinks: [Sink] = [Sink(name: "vsink")], modules: [String] = []) throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/pulseaudio") else {
            throw Failure(description: "pulseaudio is not installed: run scripts/deps")
        }
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("camrec-pulse-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let log = folder.appendingPathComponent("log")
        FileManager.default.createFile(atPath: log.path, contents: nil)
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        // pulseaudio closes every file it inherits when it starts, among them the socket by
        // which Foundation's Process learns that a child ended; Foundation then takes that for
        // the end and blocks in waitpid on its monitoring thread, and no other child's end is
        // ever noticed again (every later pactl or ffmpeg stays a zombie and times out). A
        // shell in between keeps that socket open; it passes SIGTERM on and waits.
        let keeper = "\"$@\" & child=$!; trap 'kill -TERM $child; wait $child; exit 0' TERM INT; wait $child"
        var arguments = ChildProcess.cleanSignals + [
            "/bin/sh", "-c", keeper, "sh",
            "/usr/bin/pulseaudio", "-n", "--daemonize=no", "--exit-idle-time=-1", "--use-pid-file=no",
            "--disable-shm=true", "--log-target=stderr", "--load=module-native-protocol-unix",
        ]
        arguments += sinks.map { "--load=" + $0.argument } + modules.map { "--load=" + $0 }
        process.arguments = arguments
        let clients = Self.clientEnvironment(folder: folder, base: ProcessInfo.processInfo.environment)
        process.environment = clients
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: log)
        try process.run()
        let process = process
        var lastAnswer = ""
        let answered = Wait.until(timeout: 30) {
            guard process.isRunning else { return true }
            let answer = try? ChildProcess.run("pactl", ["info"], environment: clients, timeout: 10)
            lastAnswer = answer.map { "pactl status \($0.status): \($0.stderr)" } ?? "pactl did not run"
            return answer?.status == 0
        }
        guard answered, process.isRunning else {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            stop()
            throw Failure(description: "the test sound server did not start (\(lastAnswer)): \(text.suffix(1500))")
        }
    }

    /// The environment of a client (camrec, ffmpeg, pactl): `base` with this server's socket.
    func environment(base: [String: String] = ProcessInfo.processInfo.environment) -> [String: String] {
        Self.clientEnvironment(folder: folder, base: base)
    }

    private static func clientEnvironment(folder: URL, base: [String: String]) -> [String: String] {
        var environment = base
        environment["XDG_RUNTIME_DIR"] = folder.path
        environment["HOME"] = folder.path
        environment["PULSE_SERVER"] = "unix:" + folder.appendingPathComponent("pulse/native").path
        return environment
    }

    /// Stops the server and removes its folder.
    func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: folder)
    }

    deinit { stop() }
}

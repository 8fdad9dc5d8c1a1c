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
    init(sinks: [Sink] = [Sink(name: "vsink")]) throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/pulseaudio") else {
            throw Failure(description: "pulseaudio is not installed: run scripts/deps")
        }
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("camrec-pulse-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let log = folder.appendingPathComponent("log")
        FileManager.default.createFile(atPath: log.path, contents: nil)
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        // pulseaudio runs under a shell that forwards TERM to it: started as this process's
        // direct child, it left every later child of the test process unreaped (`pactl`,
        // camrec: zombies whose termination handlers never ran) on this machine.
        var arguments = ChildProcess.cleanSignals + [
            "/bin/sh", "-c", #""$@" & child=$!; trap 'kill -TERM $child; wait $child; exit 0' TERM INT; wait $child"#, "sh",
            "/usr/bin/pulseaudio", "-n", "--daemonize=no", "--exit-idle-time=-1", "--use-pid-file=no",
            "--disable-shm=true", "--log-target=stderr", "--load=module-native-protocol-unix",
        ]
        arguments += sinks.map { "--load=" + $0.argument }
        process.arguments = arguments
        let clients = Self.clientEnvironment(folder: folder, base: ProcessInfo.processInfo.environment)
        process.environment = clients
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: log)
        try process.run()
        let process = process
        let answered = Wait.until(timeout: 30) {
            guard process.isRunning else { return true }
            return (try? ChildProcess.run("pactl", ["info"], environment: clients, timeout: 10))?.status == 0
        }
        guard answered, process.isRunning else {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            stop()
            throw Failure(description: "the test sound server did not start: \(text.suffix(600))")
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

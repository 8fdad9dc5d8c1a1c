import Foundation

/// One emulated device as `CAMREC_VCAM` describes it (see docs/virtual-camera.md).
struct VirtualCameraDevice: Sendable {
    var path: String
    var card: String? = nil
    /// A subset of `yuyv`, `mjpeg`, `h264`, in enumeration order.
    var formats: [String]? = nil
    /// `WxH@F[/F...]` entries that replace the mode table of every format.
    var sizes: [String]? = nil
    /// `unplug@N`, `ebusy`, `eacces` or `enoent`.
    var fault: String? = nil
    /// `every:K:Dms`: before every K-th frame the stream stalls for D.
    var slow: String? = nil
    /// Every N-th sequence number is lost.
    var dropEvery: Int? = nil
    /// The first N frames ramp up from black.
    var darkFrames: Int? = nil
    /// `overrun=wait`: a frame due while no buffer is queued waits instead of being lost, so
    /// a test that counts every frame holds on a loaded machine.
    var waitOnOverrun = false
    /// `flash=PERIOD` (e.g. `2s`): the first frame at or after each multiple of PERIOD on
    /// CLOCK_MONOTONIC is white, for A/V sync tests (see ClickPlayer, AVSync).
    var flash: String? = nil
    /// `trace=` (e.g. `frames`): what the camera prints on the recorder's stderr.
    var trace: String? = nil

    init(path: String = "/dev/video0", card: String? = nil, formats: [String]? = nil, sizes: [String]? = nil,
         fault: String? = nil, slow: String? = nil, dropEvery: Int? = nil, darkFrames: Int? = nil,
         waitOnOverrun: Bool = false, flash: String? = nil, trace: String? = nil) {
        self.trace = trace
        self.waitOnOverrun = waitOnOverrun
        self.flash = flash
        self.path = path
        self.card = card
        self.formats = formats
        self.sizes = sizes
        self.fault = fault
        self.slow = slow
        self.dropEvery = dropEvery
        self.darkFrames = darkFrames
    }

    /// The device's `PATH[,key=value...]` entry.
    var spec: String {
        var parts = [path]
        if let card { parts.append("card=\(card)") }
        if let formats { parts.append("formats=" + formats.joined(separator: "+")) }
        if let sizes { parts.append("sizes=" + sizes.joined(separator: "+")) }
        if let fault { parts.append("fault=\(fault)") }
        if let slow { parts.append("slow=\(slow)") }
        if let dropEvery { parts.append("drop=every:\(dropEvery)") }
        if let darkFrames { parts.append("dark=\(darkFrames)") }
        if waitOnOverrun { parts.append("overrun=wait") }
        if let flash { parts.append("flash=\(flash)") }
        if let trace { parts.append("trace=\(trace)") }
        return parts.joined(separator: ",")
    }
}

/// Finds the built `libVirtualCamera.so` and makes environments for child processes that
/// preload it. The test process itself is never preloaded.
struct VirtualCameraEnvironment: Sendable {
    /// The library to put in `LD_PRELOAD`.
    let library: URL

    struct NotFound: Error, CustomStringConvertible {
        let description: String
    }

    /// The library, located (or built) once per test process.
    static func shared() throws -> VirtualCameraEnvironment {
        try located.get()
    }

    private static let located: Result<VirtualCameraEnvironment, NotFound> = {
        do {
            return .success(VirtualCameraEnvironment(library: try locateLibrary()))
        } catch let error as NotFound {
            return .failure(error)
        } catch {
            return .failure(NotFound(description: "\(error)"))
        }
    }()

    /// The environment for a child process: this process's environment plus `LD_PRELOAD`
    /// and `CAMREC_VCAM`. `GST_V4L2_USE_LIBV4L2` is removed: libv4l2 bypasses the shim.
    func environment(_ devices: [VirtualCameraDevice],
                     base: [String: String] = ProcessInfo.processInfo.environment) -> [String: String] {
        environment(spec: devices.map(\.spec).joined(separator: ";"), base: base)
    }

    /// The same with a raw `CAMREC_VCAM` value.
    func environment(spec: String, base: [String: String] = ProcessInfo.processInfo.environment) -> [String: String] {
        var env = base
        env["LD_PRELOAD"] = library.path
        env["CAMREC_VCAM"] = spec
        env["GST_V4L2_USE_LIBV4L2"] = nil
        return env
    }

    // MARK: locating

    /// The package root, from this file's path (Tests/CamrecTests/Support/…).
    static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
    }

    private static let libraryName = "libVirtualCamera.so"

    /// Order: `$CAMREC_VIRTUAL_CAMERA`; the test binary's build folder; the package's
    /// `.build/debug` and `.build/release`; finally a private build with the C compiler.
    /// A library older than its sources is skipped, so tests never run a stale emulator.
    private static func locateLibrary() throws -> URL {
        let fm = FileManager.default
        if let explicit = ProcessInfo.processInfo.environment["CAMREC_VIRTUAL_CAMERA"] {
            guard fm.fileExists(atPath: explicit) else {
                throw NotFound(description: "CAMREC_VIRTUAL_CAMERA=\(explicit) does not exist")
            }
            return URL(fileURLWithPath: explicit)
        }
        let newestSource = sourceFiles().compactMap(modificationDate).max() ?? .distantPast
        var candidates: [URL] = []
        for executable in [Bundle.main.executableURL, URL(fileURLWithPath: CommandLine.arguments[0])] {
            guard let folder = executable?.resolvingSymlinksInPath().deletingLastPathComponent() else { continue }
            candidates.append(folder.appendingPathComponent(libraryName))
            // macOS-style bundles put the binary a few levels down
            candidates.append(folder.deletingLastPathComponent().appendingPathComponent(libraryName))
        }
        for configuration in ["debug", "release"] {
            candidates.append(packageRoot.appendingPathComponent(".build/\(configuration)/\(libraryName)"))
        }
        for candidate in candidates {
            if let date = modificationDate(candidate), date >= newestSource { return candidate }
        }
        return try buildPrivateCopy(newestSource: newestSource)
    }

    private static func sourceFiles() -> [URL] {
        let folder = packageRoot.appendingPathComponent("Sources/VirtualCamera")
        guard let names = try? FileManager.default.subpathsOfDirectory(atPath: folder.path) else { return [] }
        return names.filter { $0.hasSuffix(".c") || $0.hasSuffix(".h") }.map { folder.appendingPathComponent($0) }
    }

    private static func modificationDate(_ url: URL) -> Date? {
        (try? FileManager.default.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date
    }

    /// Compiles the emulator the way Package.swift links it, into a temporary folder.
    private static func buildPrivateCopy(newestSource: Date) throws -> URL {
        let sources = sourceFiles().filter { $0.pathExtension == "c" }.map(\.path).sorted()
        guard !sources.isEmpty else { throw NotFound(description: "no sources under Sources/VirtualCamera") }
        let stamp = Int(newestSource.timeIntervalSince1970)
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("camrec-vcam-\(getuid())-\(stamp)")
        let output = folder.appendingPathComponent(libraryName)
        if FileManager.default.fileExists(atPath: output.path) { return output }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let include = packageRoot.appendingPathComponent("Sources/VirtualCamera/include").path
        let partial = folder.appendingPathComponent("\(libraryName).\(getpid())")
        var lastError = ""
        for compiler in ["cc", "clang", "gcc"] {
            let result = try? ChildProcess.run(
                "/usr/bin/env",
                [compiler, "-std=gnu11", "-O2", "-fPIC", "-shared", "-I", include] + sources
                    + ["-o", partial.path, "-ldl", "-lpthread", "-lturbojpeg", "-lx264"],
                timeout: 120)
            if let result, result.status == 0 {
                _ = try? FileManager.default.removeItem(at: output)
                try FileManager.default.moveItem(at: partial, to: output)
                return output
            }
            lastError = result?.stderr ?? "\(compiler) did not run"
        }
        throw NotFound(description: "\(libraryName) is not built and compiling it failed:\n\(lastError)")
    }
}

/// A finished child process.
struct ChildProcessResult: Sendable {
    var status: Int32
    var stdout: Data
    var stderr: String
    /// Wall-clock seconds from launch to exit.
    var seconds: Double
    var timedOut: Bool

    var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
}

/// Runs tools (gst-launch-1.0, ffmpeg, ffprobe, cc) as child processes. Output goes to
/// temporary files, so a chatty child can never block on a full pipe.
enum ChildProcess {
    struct LaunchFailure: Error, CustomStringConvertible {
        let description: String
    }

    /// `env` options that start a child with every signal unblocked and at its default
    /// action, as a shell gives them. Foundation's `Process` passes on the signal mask of the
    /// thread that starts it, and tests run on Dispatch threads that block most signals
    /// (SIGINT, SIGTERM, SIGHUP, SIGUSR1, …): without this, gst-launch would ignore SIGINT,
    /// and camrec would be tested with its stop signals blocked before it blocks them itself.
    /// (GNU env ≥ 8.31; `--default-signal` also unblocks.)
    static let cleanSignals = ["--default-signal"]

    /// Runs `tool` (a path, or a name looked up in PATH) with `arguments`.
    static func run(_ tool: String, _ arguments: [String], environment: [String: String]? = nil,
                    timeout: TimeInterval = 60) throws -> ChildProcessResult {
        let fm = FileManager.default
        let scratch = fm.temporaryDirectory.appendingPathComponent("camrec-child-\(UUID().uuidString)")
        try fm.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? fm.removeItem(at: scratch) }
        let outURL = scratch.appendingPathComponent("stdout"), errURL = scratch.appendingPathComponent("stderr")
        fm.createFile(atPath: outURL.path, contents: nil)
        fm.createFile(atPath: errURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL), err = try FileHandle(forWritingTo: errURL)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = cleanSignals + [tool] + arguments
        if let environment { process.environment = environment }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = out
        process.standardError = err
        let done = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in done.signal() }
        let start = Date()
        do {
            try process.run()
        } catch {
            throw LaunchFailure(description: "cannot run \(tool): \(error)")
        }
        var timedOut = false, exited = true
        if done.wait(timeout: .now() + timeout) == .timedOut {
            timedOut = true
            process.interrupt()
            if done.wait(timeout: .now() + 5) == .timedOut {
                kill(process.processIdentifier, SIGKILL)
                // a grandchild that inherited our files can delay Foundation's notice: do not hang on it
                exited = done.wait(timeout: .now() + 10) == .success
            }
        }
        let seconds = Date().timeIntervalSince(start)
        try? out.close()
        try? err.close()
        return ChildProcessResult(
            status: exited ? process.terminationStatus : -1,
            stdout: (try? Data(contentsOf: outURL)) ?? Data(),
            stderr: String(decoding: (try? Data(contentsOf: errURL)) ?? Data(), as: UTF8.self),
            seconds: seconds, timedOut: timedOut)
    }
}

import Foundation

/// The fake hardware encoders of Tests/Fixtures/FakeHardwareEncoder/fakehwenc.c, compiled
/// once per test process into a temporary folder (`cc -shared -fPIC … $(pkg-config --cflags
/// --libs gstreamer-1.0)`). `fakehwh264enc` works (x264enc inside a bin whose klass says
/// Hardware); `brokenhwh264enc` fails to start with "no device", as vaapih264enc does without
/// a GPU. Both rank NONE; the broken one sorts first by name.
///
/// This file lives beside the C source and is linked (symbolic link) into the Support
/// folders of CamrecKitTests and CamrecTests, which both use it.
enum FakeHardwareEncoder {
    /// The working fake's factory name.
    static let working = "fakehwh264enc"
    /// The fake that fails at start.
    static let broken = "brokenhwh264enc"

    struct BuildFailure: Error, CustomStringConvertible {
        let description: String
    }

    /// The folder holding the compiled plugin (libgstfakehwenc.so), for GST_PLUGIN_PATH.
    static var folder: String { get throws { try built.get() } }

    /// The compiled plugin library.
    static var library: String { get throws { try folder + "/libgstfakehwenc.so" } }

    /// An environment whose GStreamer also loads the fakes: GST_PLUGIN_PATH names the folder,
    /// and a registry of its own there keeps the user's registry free of them.
    static func environment(base: [String: String] = ProcessInfo.processInfo.environment) throws -> [String: String] {
        var environment = base
        let folder = try folder
        environment["GST_PLUGIN_PATH"] = folder
        environment["GST_PLUGIN_PATH_1_0"] = folder
        environment["GST_REGISTRY_1_0"] = folder + "/registry.bin"
        return environment
    }

    private static let built: Result<String, BuildFailure> = {
        let source = packageRoot.appendingPathComponent("Tests/Fixtures/FakeHardwareEncoder/fakehwenc.c").path
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("camrec-fakehwenc-\(getpid())").path
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let flags = try run("pkg-config", ["--cflags", "--libs", "gstreamer-1.0"])
            let arguments = ["-std=gnu11", "-O1", "-Wall", "-shared", "-fPIC", source, "-o", folder + "/libgstfakehwenc.so"]
                + flags.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)
            _ = try run("cc", arguments)
            return .success(folder)
        } catch let failure as BuildFailure {
            return .failure(failure)
        } catch {
            return .failure(BuildFailure(description: "cannot build the fake hardware encoders: \(error)"))
        }
    }()

    /// The package's root: the folder above Tests.
    private static var packageRoot: URL {
        var url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while url.path != "/" && !FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) {
            url = url.deletingLastPathComponent()
        }
        return url
    }

    /// Runs a tool found on PATH; its stdout, or a failure with its stderr.
    private static func run(_ tool: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Small outputs; read stderr on another thread so that neither pipe can fill up.
        let errorText = LockedText()
        let reader = Thread { errorText.set(String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)) }
        reader.start()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            while !errorText.isSet { Thread.sleep(forTimeInterval: 0.001) }
            throw BuildFailure(description: "\(tool) \(arguments.joined(separator: " ")) failed: \(errorText.value)")
        }
        return text
    }

    private final class LockedText: @unchecked Sendable {
        private let lock = NSLock()
        private var text: String?
        func set(_ value: String) { lock.withLock { text = value } }
        var isSet: Bool { lock.withLock { text != nil } }
        var value: String { lock.withLock { text ?? "" } }
    }
}

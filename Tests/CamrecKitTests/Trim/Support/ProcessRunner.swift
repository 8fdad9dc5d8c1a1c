import Foundation

/// Runs a tool and captures its output (tests only).
enum ProcessRunner {
    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String
        var stdoutData: Data
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    @discardableResult
    static func run(_ executable: String, _ arguments: [String]) throws -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable.hasPrefix("/") ? executable : (FileManager.default.isExecutableFile(atPath: "/usr/bin/" + executable) ? "/usr/bin/" : "/bin/") + executable)
        process.arguments = arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Read both pipes concurrently so neither fills up and blocks the tool.
        let group = DispatchGroup()
        nonisolated(unsafe) var errData = Data()
        group.enter()
        DispatchQueue.global().async {
            errData = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Output(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self), stdoutData: outData
        )
    }

    /// Runs and throws when the tool fails.
    @discardableResult
    static func check(_ executable: String, _ arguments: [String]) throws -> Output {
        let output = try run(executable, arguments)
        guard output.status == 0 else {
            throw Failure(description: "\(executable) \(arguments.joined(separator: " ")) failed: \(output.stderr.suffix(600))")
        }
        return output
    }
}

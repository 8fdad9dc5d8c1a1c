import Foundation

/// Runs camrec on a pseudo-terminal of its own, as a person at a terminal would: script(1)
/// makes camrec the session leader on a new terminal, copies what it shows to
/// `typescript`, and passes what is written to `input` on as typed keys. Killing the
/// returned process closes the terminal (a hang-up).
enum PseudoTerminal {
    static func start(camrec arguments: [String], typescript: String, input: Pipe? = nil,
                      environment: [String: String]? = nil) throws -> Process {
        let quoted = arguments.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        let command = "exec '\(CamrecBinary.url.path)' " + quoted
        let terminal = Process()
        terminal.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        terminal.arguments = ChildProcess.cleanSignals + ["/usr/bin/script", "-qfec", command, typescript]
        if let environment { terminal.environment = environment }
        if let input { terminal.standardInput = input } else { terminal.standardInput = FileHandle.nullDevice }
        terminal.standardOutput = FileHandle.nullDevice
        terminal.standardError = FileHandle.nullDevice
        try terminal.run()
        return terminal
    }
}

import Foundation
@testable import CamrecKit

/// A `StandardStream` into a pipe whose other end the test reads: what a console writes,
/// byte for byte.
final class CapturedStream {
    let stream: StandardStream
    private let readEnd: Int32
    private let writeEnd: Int32
    private var bytes: [UInt8] = []

    init() {
        var ends: [Int32] = [-1, -1]
        precondition(pipe(&ends) == 0, "pipe: \(errno)")
        readEnd = ends[0]
        writeEnd = ends[1]
        _ = fcntl(readEnd, F_SETFL, fcntl(readEnd, F_GETFL) | O_NONBLOCK)
        stream = StandardStream(descriptor: writeEnd)
    }

    deinit {
        close(readEnd)
        close(writeEnd)
    }

    /// Everything written so far (a stream that is not queued writes before it returns).
    var text: String {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(readEnd, &chunk, chunk.count)
            guard count > 0 else { break }
            bytes.append(contentsOf: chunk[0..<count])
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The lines written so far, without their newlines.
    var lines: [String] { text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init) }

    /// Waits for `count` whole lines (a queued stream writes on a thread of its own).
    func waitForLines(_ count: Int) -> [String] {
        _ = Wait.until(timeout: 10) { lines.count >= count }
        return lines
    }
}

extension Console {
    /// A console that writes JSON lines to `output` and lines for people to `error`.
    convenience init(json: Bool, quiet: Bool = false, terminal: Bool = false, output: CapturedStream, error: CapturedStream) {
        self.init(json: json, quiet: quiet, isTerminal: terminal, useColor: false, output: output.stream, error: error.stream)
    }
}

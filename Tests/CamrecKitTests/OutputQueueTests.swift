@testable import CamrecKit
import Synchronization
import Testing

/// Issue 29 item 9: output for a reader that stops reading never blocks the caller; what
/// does not fit is dropped and counted, the essential lines are kept, and draining is bounded.
@Suite struct OutputQueueTests {
    /// A reader that reads nothing until `open()`: each write waits for it.
    final class StalledReader: Sendable {
        private let gate = ThreadCondition()
        private let state = Mutex<(open: Bool, written: [[UInt8]])>((false, []))

        func write(_ line: [UInt8]) {
            gate.withLock {
                while !state.withLock({ $0.open }) { gate.wait() }
            }
            state.withLock { $0.written.append(line) }
        }

        func open() {
            gate.withLock {
                state.withLock { $0.open = true }
                gate.broadcast()
            }
        }

        var written: [[UInt8]] { state.withLock { $0.written } }
    }

    @Test func item9_aStalledReaderNeverBlocksAndWhatDoesNotFitIsCounted() {
        let reader = StalledReader()
        let queue = OutputQueue(name: "test-output", capacity: 100) { reader.write($0) }
        let line = [UInt8](repeating: UInt8(ascii: "x"), count: 30)
        // A line counts until it is written: three fit in 100 bytes (the first waiting in
        // the reader's write), the rest are dropped. None of these calls waits for the reader.
        var accepted = 0
        for _ in 0..<10 where queue.enqueue(line) { accepted += 1 }
        #expect(accepted == 3, "accepted \(accepted)")
        #expect(queue.droppedLines == 10 - accepted)
        // An essential line (the result) is queued whatever the queue holds.
        #expect(queue.enqueue(Array("result".utf8), essential: true))
        // Draining is bounded while the reader does not read.
        #expect(!queue.drain(timeout: .milliseconds(50)))
        reader.open()
        #expect(queue.drain(timeout: .seconds(60)))
        #expect(reader.written.count == accepted + 1)
        #expect(reader.written.last == Array("result".utf8), "lines are written in order, the result last")
    }

    @Test func linesAreWrittenInOrder() {
        let reader = StalledReader()
        reader.open()
        let queue = OutputQueue(name: "test-order", capacity: 1 << 20) { reader.write($0) }
        for index in 0..<500 { queue.enqueue(Array("\(index)\n".utf8)) }
        #expect(queue.drain(timeout: .seconds(60)))
        #expect(reader.written.map { String(decoding: $0, as: UTF8.self) } == (0..<500).map { "\($0)\n" })
        #expect(queue.droppedLines == 0)
    }
}

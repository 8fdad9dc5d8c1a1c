import Foundation
import Testing
@testable import CamrecKit

/// What `Console` writes: JSON lines on one stream (type first, snake_case keys in order,
/// dropped_lines only on the last lines of a queued stream), lines for people on the other.
@Suite struct ConsoleTests {
    private struct Sample: Encodable {
        let partialPath: String
        let frames: Int
    }

    @Test func jsonLinesStartWithTheirTypeAndUseSnakeCaseKeysInOrder() {
        let (output, error) = (CapturedStream(), CapturedStream())
        let console = Console(json: true, output: output, error: error)
        console.emit(Sample(partialPath: "a/b.partial.mp4", frames: 3), type: "segment")
        #expect(output.lines == [#"{"type":"segment","frames":3,"partial_path":"a/b.partial.mp4"}"#])
        #expect(error.text.isEmpty)
    }

    @Test func anEmptyObjectIsJustItsType() {
        struct Empty: Encodable {}
        let (output, error) = (CapturedStream(), CapturedStream())
        Console(json: true, output: output, error: error).emit(Empty(), type: "tick")
        #expect(output.lines == [#"{"type":"tick"}"#])
    }

    @Test func withoutJSONNothingGoesToTheJSONStream() {
        let (output, error) = (CapturedStream(), CapturedStream())
        let console = Console(json: false, output: output, error: error)
        console.emit(Sample(partialPath: "x", frames: 1), type: "segment")
        console.fail(CamrecError(.usage, "bad option"))
        #expect(output.text.isEmpty)
        #expect(error.text == "camrec: bad option\n")
    }

    @Test func anErrorIsALineForPeopleAndAJSONErrorLine() {
        let (output, error) = (CapturedStream(), CapturedStream())
        Console(json: true, output: output, error: error).fail(CamrecError(.cannotCreateOutput, "out.mp4 already exists"))
        #expect(error.text == "camrec: out.mp4 already exists\n")
        #expect(output.lines == [#"{"type":"error","exit_code":73,"message":"out.mp4 already exists"}"#])
    }

    @Test func quietKeepsErrorsOnly() {
        let (output, error) = (CapturedStream(), CapturedStream())
        let console = Console(json: false, quiet: true, terminal: true, output: output, error: error)
        console.say("camrec: saved out.mp4")
        console.progress("00:00:01")
        console.fail(CamrecError(.failure, "it broke"))
        #expect(error.text == "camrec: it broke\n")
    }

    @Test func theProgressLineIsRewrittenOnATerminalAndRubbedOutByTheNextLine() {
        let (output, error) = (CapturedStream(), CapturedStream())
        let console = Console(json: false, terminal: true, output: output, error: error)
        console.progress("00:00:01")
        console.progress("00:00:02")
        console.say("camrec: saved out.mp4")
        console.say("camrec: 1 still taken")
        #expect(error.text == "\r\u{1B}[2K● 00:00:01\r\u{1B}[2K● 00:00:02\r\u{1B}[2Kcamrec: saved out.mp4\ncamrec: 1 still taken\n")
    }

    @Test func noProgressLineWithoutATerminal() {
        let (output, error) = (CapturedStream(), CapturedStream())
        let console = Console(json: false, terminal: false, output: output, error: error)
        console.progress("00:00:01")
        console.say("camrec: saved out.mp4")
        #expect(error.text == "camrec: saved out.mp4\n")
    }

    @Test func aQueuedStreamsResultAndErrorLinesSayHowManyLinesWereDropped() {
        let (output, error) = (CapturedStream(), CapturedStream())
        output.stream.startQueue(name: "camrec-test-stdout")
        let console = Console(json: true, output: output, error: error)
        console.emit(WarningLine(message: "slow"), type: "warning")
        console.emit(Sample(partialPath: "x", frames: 1), type: "result")
        console.fail(CamrecError(.usage, "late"))
        let lines = output.waitForLines(3)
        #expect(lines == [
            #"{"type":"warning","message":"slow"}"#,
            #"{"type":"result","dropped_lines":0,"frames":1,"partial_path":"x"}"#,
            #"{"type":"error","dropped_lines":0,"exit_code":64,"message":"late"}"#,
        ])
    }
}

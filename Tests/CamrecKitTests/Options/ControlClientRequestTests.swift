@testable import CamrecKit
import Testing

/// `camrec ctl`'s arguments as given, typed by `ControlClientRequest`: the line it sends.
struct ControlClientRequestTests {
    func request(_ command: String?, _ argument: String? = nil, after: String? = nil, still: Bool = false,
                 timeout: String? = nil, socket: String? = "/tmp/s") throws(CamrecError) -> ControlClientRequest {
        try ControlClientRequest(socket: socket, command: command, argument: argument, after: after, still: still, timeout: timeout)
    }

    @Test func linesSent() throws {
        for command in ["still", "stop", "status", "split", "clip"] {
            let sent = try request(command)
            #expect(sent.line == command && sent.socket == "/tmp/s" && sent.timeoutSeconds == 10)
        }
        #expect(try request("set", "exposure=1/60,zoom=200").line == "set exposure=1/60,zoom=200")
        #expect(try request("clip", after: "20s", still: true).line == "clip --after 20s --still")
        #expect(try request("clip", still: true).line == "clip --still")
        #expect(try request("status", timeout: "1m30s").timeoutSeconds == 90)
    }

    @Test func refusals() {
        #expect(refusal { try request(nil) } == "give a socket and a command, e.g. camrec ctl /tmp/camrec.sock still")
        #expect(refusal { try request("still", socket: nil) } == "give a socket and a command, e.g. camrec ctl /tmp/camrec.sock still")
        #expect(refusal { try request("set") } == "set needs NAME=VALUE, e.g. camrec ctl /tmp/camrec.sock set exposure=1/60")
        let known = ControlCommand.allCases.map(\.rawValue).joined(separator: ", ")
        #expect(refusal { try request("pause") } == "unknown command 'pause': use one of \(known), e.g. camrec ctl /tmp/s status")
        #expect(refusal { try request("still", "x.jpg") }
                == "unexpected argument 'x.jpg' after still: the still is named by the recording's --stills pattern, and the reply gives its path")
        #expect(refusal { try request("stop", "now") } == "unexpected argument 'now' after stop: stop takes no argument")
        for (after, still) in [("5s", false), (nil, true)] as [(String?, Bool)] {
            #expect(refusal { try request("still", after: after, still: still) }
                    == "--after and --still go with clip only, e.g. camrec ctl /tmp/camrec.sock clip --after 20s")
        }
        #expect(refusal { try request("status", timeout: "0.5") } == "--timeout: the timeout is at least 1 s, e.g. --timeout 30s")
        #expect(refusal { try request("status", timeout: "x") }?.hasPrefix("--timeout: invalid duration 'x'") == true)
    }
}

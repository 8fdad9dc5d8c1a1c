@testable import CamrecKit
import Testing

/// `camrec trim`'s arguments as given, typed by `TrimRequest.parse` (every check that
/// needs no media).
struct TrimRequestOptionsTests {
    func parse(input: String? = "in.mp4", start: String? = "2", end: String? = nil, mode: String? = nil,
               output: String? = nil, inPlace: Bool = false, force: Bool = false) throws(CamrecError) -> TrimRequest {
        try TrimRequest.parse(input: input, start: start, end: end, mode: mode, output: output, inPlace: inPlace, force: force)
    }

    @Test func givenValuesAreTyped() throws {
        #expect(try parse() == TrimRequest(input: "in.mp4", start: .seconds(2)))
        let request = try parse(start: "-10", end: "-3", mode: "KEYFRAME", output: "out.mkv", force: true)
        #expect(request == TrimRequest(input: "in.mp4", start: try TimeSpec.parse("-10", allowNegative: true),
                                       end: try TimeSpec.parse("-3", allowNegative: true), mode: .keyframe,
                                       destination: .path("out.mkv"), force: true))
        #expect(try parse(inPlace: true).destination == .inPlace)
    }

    @Test func refusals() {
        #expect(refusal { try parse(start: "soon") }?.hasPrefix("--start: invalid time 'soon'") == true)
        #expect(refusal { try parse(end: "later") }?.hasPrefix("--end: invalid time 'later'") == true)
        #expect(refusal { try parse(input: nil) } == "missing INPUT: give the movie to trim (see camrec trim --help)")
        #expect(refusal { try parse(mode: "fast") } == "--mode: unknown mode 'fast': use accurate, keyframe or reencode")
        #expect(refusal { try parse(output: "o.mp4", inPlace: true) } == "give either -o OUT or --in-place, not both")
        // The request's own checks follow.
        #expect(refusal { try parse(start: nil) } == "give --start, --end or both (e.g. camrec trim --start 2 --end 5 in.mp4)")
        #expect(refusal { try parse(output: "o.avi") }?.hasPrefix("camrec trim writes no AVI") == true)
    }
}

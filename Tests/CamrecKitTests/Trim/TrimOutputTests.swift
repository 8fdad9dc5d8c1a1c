@testable import CamrecKit
@testable import Trim
import Testing

/// The default output is named from the input as the user spelled it (relative stays
/// relative), as `camrec record` reports paths.
@Suite("Trim output names")
struct TrimOutputTests {
    @Test(arguments: [
        ("in.mp4", "in-trimmed.mp4"),
        ("./in.mp4", "./in-trimmed.mp4"),
        ("clips/in.mkv", "clips/in-trimmed.mkv"),
        ("../clips/take.2.MOV", "../clips/take.2-trimmed.MOV"),
        ("/abs/in.mp4", "/abs/in-trimmed.mp4"),
        ("movie", "movie-trimmed.mp4"),  // no extension: the container's
    ])
    func besideTheInput(input: String, expected: String) {
        #expect(TrimOutput.besideInput(input, container: .mp4) == expected)
    }

    @Test func anInputWithoutExtensionGetsItsContainers() {
        #expect(TrimOutput.besideInput("clips/movie", container: .matroska) == "clips/movie-trimmed.mkv")
        #expect(TrimOutput.besideInput("movie", container: .mov) == "movie-trimmed.mov")
    }

    @Test("-o must name the container, as record's OUTPUT must", arguments: ["out-t", "clips/out", "out.avi"])
    func outputWithoutAKnownExtensionIsAUsageError(output: String) {
        let request = TrimRequest(input: "in.mp4", start: .seconds(1), destination: .path(output))
        #expect {
            try request.validate()
        } throws: { error in
            guard let error = error as? CamrecError else { return false }
            return error.kind == .usage && error.status == .usage && error.message.contains(".mp4, .mov, .mkv or .webm")
        }
    }
}

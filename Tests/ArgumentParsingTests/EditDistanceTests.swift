@testable import ArgumentParsing
import Testing

@Suite("EditDistance")
struct EditDistanceTests {
    @Test(arguments: [
        ("", "", 0), ("a", "", 1), ("", "abc", 3), ("force", "force", 0),
        ("--maxduration", "--max-duration", 1), ("froce", "force", 1), ("kitten", "sitting", 3),
        ("abc", "cba", 2), ("device", "devcie", 1),
    ])
    func distance(_ a: String, _ b: String, expected: Int) {
        #expect(EditDistance.between(a, b) == expected)
        #expect(EditDistance.between(b, a) == expected)
    }

    @Test func closestPrefersTheNearest() {
        let names = ["--start", "--stop", "--end"]
        #expect(EditDistance.closest(to: "--stat", among: names) == "--start")
        #expect(EditDistance.closest(to: "--stpo", among: names) == "--stop")
        #expect(EditDistance.closest(to: "--nothing-like-it", among: names) == nil)
    }
}

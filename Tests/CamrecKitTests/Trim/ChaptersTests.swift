@testable import CamrecKit
@testable import Trim
import Testing

@Suite("Chapters kept by a cut")
struct ChaptersTests {
    /// Chapters at 0, 2 and 4 s of a 6-s movie, as a Nero list gives them (no ends).
    static let nero = ChapterList([
        Chapter(start: 4_000_000_000, end: nil, title: "Three"),
        Chapter(start: 0, end: nil, title: "One"),
        Chapter(start: 2_000_000_000, end: nil, title: "Two"),
    ])

    @Test func chaptersAreSortedAndTheirEndsMadeExplicit() {
        let closed = Self.nero.withEnds(length: 6_000_000_000).chapters
        #expect(closed.map(\.title) == ["One", "Two", "Three"])
        #expect(closed.map(\.end) == [2_000_000_000, 4_000_000_000, 6_000_000_000])
    }

    @Test func aCutInsideOneChapterKeepsOnlyItFromZero() {
        let kept = Self.nero.cut(start: 2_500_000_000, end: 3_500_000_000, length: 6_000_000_000).chapters
        #expect(kept == [Chapter(start: 0, end: 1_000_000_000, title: "Two")])
    }

    @Test func aCutAcrossChaptersShiftsAndClipsThem() {
        let kept = Self.nero.cut(start: 1_000_000_000, end: 5_000_000_000, length: 6_000_000_000).chapters
        #expect(kept == [
            Chapter(start: 0, end: 1_000_000_000, title: "One"),
            Chapter(start: 1_000_000_000, end: 3_000_000_000, title: "Two"),
            Chapter(start: 3_000_000_000, end: 4_000_000_000, title: "Three"),
        ])
    }

    @Test func aChapterThatEndsWhereTheCutStartsIsDropped() {
        let kept = Self.nero.cut(start: 2_000_000_000, end: 4_000_000_000, length: 6_000_000_000).chapters
        #expect(kept.map(\.title) == ["Two"])
        #expect(ChapterList([]).cut(start: 0, end: 1, length: 1).isEmpty)
    }
}

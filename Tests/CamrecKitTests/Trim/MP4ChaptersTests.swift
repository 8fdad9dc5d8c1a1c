@testable import CamrecKit
@testable import Trim
import Foundation
import Testing

/// The MP4 chapter reader and the boxes it writes (issue 30 item 5), on bytes made by hand
/// and on a movie ffmpeg writes.
@Suite("MP4 chapters: Nero list and QuickTime chapter track")
struct MP4ChaptersTests {
    static let list = ChapterList([
        Chapter(start: 0, end: nil, title: "One"),
        Chapter(start: 1_000_000_000, end: nil, title: "Deux é"),
        Chapter(start: 3_000_000_000, end: nil, title: ""),
    ])

    @Test func aNeroBoxReadsBackAsItsList() throws {
        let box = MP4Chapters.neroBox(Self.list)
        #expect(Array(box[4..<8]) == Array("chpl".utf8))
        #expect(Int(box[0]) << 24 | Int(box[1]) << 16 | Int(box[2]) << 8 | Int(box[3]) == box.count)
        #expect(MP4Chapters.nero(payload: Array(box[8...])) == Self.list)
    }

    @Test func versionZeroHasNoReservedWord() {
        // version 0, flags, count 1, start 2 s (100 ns units), "A".
        let payload: [UInt8] = [0, 0, 0, 0, 1] + [0, 0, 0, 0, 0x01, 0x31, 0x2D, 0x00] + [1, 0x41]
        #expect(MP4Chapters.nero(payload: payload) == ChapterList([Chapter(start: 2_000_000_000, end: nil, title: "A")]))
        #expect(MP4Chapters.nero(payload: Array(payload.dropLast())) == nil)
    }

    @Test func userDataKeepsItsOtherBoxesAndDropsAnEmptyList() throws {
        let meta: [UInt8] = [0, 0, 0, 12] + Array("meta".utf8) + [1, 2, 3, 4]
        let chpl = MP4Chapters.neroBox(Self.list)
        let body = meta + chpl
        let udta = [UInt8(0), 0, 0, UInt8(8 + body.count)] + Array("udta".utf8) + body
        let cut = Self.list.cut(start: 500_000_000, end: 2_000_000_000, length: 4_000_000_000)
        let rewritten = try #require(MP4Chapters.userData(udta, replacingNeroWith: cut))
        #expect(Array(rewritten[8..<20]) == meta)
        #expect(MP4Chapters.nero(userData: rewritten)?.chapters.map(\.start) == [0, 500_000_000])
        let emptied = try #require(MP4Chapters.userData(udta, replacingNeroWith: ChapterList([])))
        #expect(Array(emptied[8...]) == meta)
        #expect(MP4Chapters.nero(userData: emptied) == nil)
    }

    @Test func textSamplesReadInUTF8AndUTF16() {
        let sample = MP4Chapters.textSample("Deux é", format: "text")
        #expect(MP4Chapters.text(ofSample: sample) == "Deux é")
        #expect(Array(sample.suffix(12)) == [0, 0, 0, 12] + Array("encd".utf8) + [0, 0, 1, 0])
        #expect(MP4Chapters.textSample("A", format: "tx3g") == [0, 1, 0x41])
        #expect(MP4Chapters.text(ofSample: [0, 6, 0xFE, 0xFF, 0, 0x41, 0, 0xE9]) == "Aé")
        #expect(MP4Chapters.text(ofSample: [0, 9, 0x41]) == "A")  // a length past the end
    }

    @Test func ffmpegsChaptersAreReadInBothForms() throws {
        let folder = try MediaFactory()
        let metadata = folder.path("chapters.txt")
        try """
            ;FFMETADATA1
            [CHAPTER]
            TIMEBASE=1/1000
            START=0
            END=1500
            title=First
            [CHAPTER]
            TIMEBASE=1/1000
            START=1500
            END=3000
            title=Second

            """.write(toFile: metadata, atomically: true, encoding: .utf8)
        let path = folder.path("in.mp4")
        try ProcessRunner.check("ffmpeg", [
            "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25:duration=3",
            "-i", metadata, "-map", "0", "-map_chapters", "1", "-c:v", "libx264", path,
        ])
        let chapters = MP4Chapters.read(path: path)
        let expected = [Chapter(start: 0, end: nil, title: "First"), Chapter(start: 1_500_000_000, end: nil, title: "Second")]
        #expect(chapters.nero?.chapters == expected)
        let track = try #require(chapters.track)
        #expect(track.chapters.map(\.title) == ["First", "Second"])
        #expect(track.chapters.map(\.start) == [0, 1_500_000_000])
        #expect(track.chapters.last?.end == 3_000_000_000)
        #expect(chapters.list == track)
        #expect(chapters.trackID != nil)
    }
}

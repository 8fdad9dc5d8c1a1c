@testable import CamrecKit
@testable import Trim
import GStreamer
import Testing
import Matroska

/// The labels of a trim's tracks and chapters, as written by hand into the files
/// GStreamer's muxers make (issue 30 items 5 and 6): plain bytes, no pipeline.
@Suite("Track labels and chapters in GStreamer-written outputs")
struct TrackLabelsTests {
    /// A master element with an 8-byte size field, as matroskamux writes them.
    static func master(_ id: UInt32, _ body: [UInt8]) -> [UInt8] {
        EBML.idBytes(id) + (EBML.sizeField(UInt64(body.count), length: 8) ?? []) + body
    }

    /// A track entry as matroskamux 1.22 writes it: number, type, uid, language (when
    /// it knows one), its invented name, codec.
    static func muxerEntry(number: UInt64, type: UInt64, name: String, language: String?) -> [UInt8] {
        var body = EBML.unsigned(EBML.ID.trackNumber, number) + EBML.unsigned(EBML.ID.trackType, type)
            + EBML.element(0x73C5, EBML.bigEndian(0x1234_5678_9ABC_DEF0 + number, length: 8))
        if let language { body += EBML.element(EBML.ID.language, Array(language.utf8)) }
        body += EBML.element(EBML.ID.name, Array(name.utf8))
        body += EBML.element(EBML.ID.codecID, Array((type == 1 ? "V_MPEG4/ISO/AVC" : "A_AAC").utf8))
        return master(EBML.ID.trackEntry, body)
    }

    static let muxerTracks = master(EBML.ID.tracks,
        muxerEntry(number: 1, type: 1, name: "Video", language: "und")
            + muxerEntry(number: 2, type: 2, name: "Audio", language: "fre")
            + muxerEntry(number: 3, type: 0x11, name: "Subtitle", language: "und"))

    @Test func theTracksElementIsRewrittenToTheInputsLabelsAtTheSameLength() throws {
        let wanted = [
            TrackLabels(languageCode: "und", matroskaLanguage: "und"),
            TrackLabels(languageCode: "fre", matroskaLanguage: "fre", name: "Commentaire", isDefault: false),
            TrackLabels(languageCode: "und", matroskaLanguage: "und", isDefault: false, isForced: true),
        ]
        let rewritten = try #require(MatroskaTrackLabels.rewrite(tracks: Self.muxerTracks, labels: wanted))
        #expect(rewritten.count == Self.muxerTracks.count)
        let read = MatroskaTrackLabels.labels(inTracks: rewritten)
        #expect(read[1] == wanted[0])
        #expect(read[2] == wanted[1])
        #expect(read[3] == wanted[2])
        // What the muxer wrote reads as every track named and default.
        let before = MatroskaTrackLabels.labels(inTracks: Self.muxerTracks)
        #expect(before[3]?.name == "Subtitle" && before[3]?.isDefault == true)
    }

    @Test func anInputThatIsNotMatroskaKeepsTheMuxersLanguage() throws {
        let rewritten = try #require(MatroskaTrackLabels.rewrite(tracks: Self.muxerTracks, labels: [
            TrackLabels(languageCode: "fra"), TrackLabels(languageCode: "fra"), TrackLabels(),
        ]))
        let read = MatroskaTrackLabels.labels(inTracks: rewritten)
        #expect(read[2]?.matroskaLanguage == "fre")
        #expect(read[2]?.name == nil)
        #expect(read[1]?.name == nil)
    }

    @Test func labelsThatDoNotFitChangeNothing() {
        let tight = EBML.element(EBML.ID.tracks, EBML.element(EBML.ID.trackEntry,
            EBML.unsigned(EBML.ID.trackNumber, 1) + EBML.element(EBML.ID.codecID, Array("A_AAC".utf8))))
        let long = TrackLabels(name: String(repeating: "x", count: 40), isDefault: false)
        #expect(MatroskaTrackLabels.rewrite(tracks: tight, labels: [long]) == nil)
        #expect(MatroskaTrackLabels.rewrite(tracks: Array(tight.dropLast()), labels: [TrackLabels()]) == nil)
    }

    @Test func aLeftOverOfOneByteIsTakenByALongerSizeField() throws {
        // Every leftover from 0 to 20 bytes gives a valid element of the same length.
        for extra in 0...20 {
            let padded = Self.master(EBML.ID.tracks,
                Self.muxerEntry(number: 1, type: 2, name: String(repeating: "a", count: 5 + extra), language: nil))
            let rewritten = try #require(MatroskaTrackLabels.rewrite(tracks: padded, labels: [TrackLabels(name: "ab")]))
            #expect(rewritten.count == padded.count)
            #expect(MatroskaTrackLabels.labels(inTracks: rewritten)[1]?.name == "ab", "\(extra)")
        }
    }

    @Test func matroskademuxStreamIDsNameTheTrackNumber() {
        #expect(TrackLabels.matroskaTrackNumber(streamID: "9f2c0e/003:12345678901234") == 3)
        #expect(TrackLabels.matroskaTrackNumber(streamID: "9f2c0e/001:1") == 1)
        #expect(TrackLabels.matroskaTrackNumber(streamID: "9f2c0e/audio") == nil)
    }

    @Test func aPadWithoutLanguageIsUndeterminedInMatroska() {
        // qtdemux tags no language for "und": Matroska's default would make it English.
        let labels = TrackLabels(pad: nil)
        #expect(labels.languageCode == nil && labels.matroskaLanguage == "und")
        #expect(labels.isDefault && !labels.isForced && labels.name == nil)
    }

    @Test func onlyMatroskamuxStreamTagsGetTheName() {
        let labels = TrackLabels(languageCode: "fre", name: "Commentaire")
        #expect(labels.streamTags(for: .matroska) == StreamTags(languageCode: "fre", title: "Commentaire"))
        #expect(labels.streamTags(for: .mp4) == StreamTags(languageCode: "fre", title: nil))
    }

    @Test func trackTargetedTagsAreBlankedOutInPlace() throws {
        let simple = Self.master(0x67C8,
            EBML.element(0x45A3, Array("TITLE".utf8)) + EBML.element(0x4487, Array("\"Main\\ sound\"".utf8)))
        let trackTag = Self.master(EBML.ID.tag,
            Self.master(EBML.ID.targets, EBML.unsigned(EBML.ID.targetTrackUID, 7)) + simple)
        let chapterTag = Self.master(EBML.ID.tag,
            Self.master(EBML.ID.targets, EBML.unsigned(0x63C4, 9)) + simple)
        let tags = Self.master(EBML.ID.tags, trackTag + chapterTag)
        let blanked = try #require(MatroskaTrackTags.blankingTrackTags(tags))
        #expect(blanked.count == tags.count)
        let children = try #require(EBML.children(of: blanked, in: 12..<blanked.count))
        #expect(children.map(\.id) == [EBML.ID.void, EBML.ID.tag])
        #expect(Array(blanked.suffix(chapterTag.count)) == chapterTag)
    }

    // MARK: Chapters

    @Test func aTableOfContentsIsCutEditionByEdition() throws {
        let contents = TableOfContents(editions: [
            [.init(start: 0, stop: 2_000_000_000, title: "Intro"), .init(start: 2_000_000_000, stop: 4_000_000_000, title: "Middle"),
             .init(start: 4_000_000_000, stop: 6_000_000_000, title: "End")],
            [.init(start: 5_500_000_000, stop: nil, title: "Late")],
        ])
        let cut = try #require(contents.cut(start: 1_000_000_000, end: 5_000_000_000, length: 6_000_000_000))
        #expect(cut.editions == [[
            .init(start: 0, stop: 1_000_000_000, title: "Intro"),
            .init(start: 1_000_000_000, stop: 3_000_000_000, title: "Middle"),
            .init(start: 3_000_000_000, stop: 4_000_000_000, title: "End"),
        ]])
        // Editions whose chapters all end before the cut are dropped; no chapter left: nil.
        let first = TableOfContents(editions: [contents.editions[0]])
        #expect(first.cut(start: 6_500_000_000, end: 7_000_000_000, length: 7_000_000_000) == nil)
    }

    @Test func aNeroListHoldsStartsIn100NanosecondUnitsAndTitles() {
        let box = NeroChapterList.box(ChapterList([
            Chapter(start: 0, end: 1_000_000_000, title: "Intro"), Chapter(start: 1_000_000_000, end: nil, title: ""),
        ]))
        let expected: [UInt8] = [0, 0, 0, 40] + Array("chpl".utf8) + [1, 0, 0, 0, 0, 0, 0, 0, 2]
            + [0, 0, 0, 0, 0, 0, 0, 0, 5] + Array("Intro".utf8) + [0, 0, 0, 0, 0, 0x98, 0x96, 0x80, 0]
        #expect(box == expected)
    }

    @Test func theNeroListGoesIntoTheMovieBoxsUserData() throws {
        let mvhd: [UInt8] = [0, 0, 0, 12] + Array("mvhd".utf8) + [0, 0, 0, 0]
        let chpl = NeroChapterList.box(ChapterList([Chapter(start: 0, end: nil, title: "A")]))
        let bare = [0, 0, 0, 20] + Array("moov".utf8) + mvhd
        let added = try #require(NeroChapterList.movieBox(bare, adding: chpl))
        #expect(added == [0, 0, 0, UInt8(28 + chpl.count)] + Array("moov".utf8) + mvhd
            + [0, 0, 0, UInt8(8 + chpl.count)] + Array("udta".utf8) + chpl)
        // A movie box that has user data with a list already: the list is replaced, the rest kept.
        let meta: [UInt8] = [0, 0, 0, 9] + Array("meta".utf8) + [7]
        let old = NeroChapterList.box(ChapterList([Chapter(start: 5, end: nil, title: "Old")]))
        let udta = [0, 0, 0, UInt8(8 + meta.count + old.count)] + Array("udta".utf8) + meta + old
        let full = [0, 0, 0, UInt8(8 + mvhd.count + udta.count)] + Array("moov".utf8) + mvhd + udta
        let replaced = try #require(NeroChapterList.movieBox(full, adding: chpl))
        #expect(replaced == [0, 0, 0, UInt8(8 + mvhd.count + 8 + meta.count + chpl.count)] + Array("moov".utf8) + mvhd
            + [0, 0, 0, UInt8(8 + meta.count + chpl.count)] + Array("udta".utf8) + meta + chpl)
        #expect(NeroChapterList.movieBox(Array(full.dropLast()), adding: chpl) == nil)
    }

    // MARK: Subtitle cues

    @Test func aCueStartingLessThanAMillisecondBeforeTheEndIsDropped() {
        let window = AudioWindow(start: 0, end: 2_000_333_333, audioPresentationOffset: 0)
        var placer = CuePlacer(window: window)
        let first = placer.place(500_000_000, duration: 1_000_000_000)
        #expect(first?.pts == 500_000_000 && first?.duration == 1_000_000_000)
        #expect(placer.place(2_000_000_000, duration: 1_000_000_000) == nil)
        var other = CuePlacer(window: window)
        let last = other.place(1_999_000_000, duration: 1_000_000_000)
        #expect(last?.pts == 1_999_000_000 && last?.duration == 1_333_333)
    }
}

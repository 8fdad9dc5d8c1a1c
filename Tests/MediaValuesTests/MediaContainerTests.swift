import Foundation
import MediaValues
import Testing

/// The one container enum: names from output extensions, the families recover accepts,
/// and the names results report.
@Suite("MediaValues MediaContainer")
struct MediaContainerTests {
    @Test func outputExtensionsNameTheirContainer() {
        #expect(MediaContainer(outputExtension: "MP4") == .mp4)
        #expect(MediaContainer(outputExtension: "m4v") == .mp4)
        #expect(MediaContainer(outputExtension: "qt") == .mov)
        #expect(MediaContainer(outputExtension: "webm") == .matroska)
        #expect(MediaContainer(outputExtension: "mkv") == .matroska)
        #expect(MediaContainer(outputExtension: "avi") == nil)
        #expect(MediaContainer(outputExtension: "") == nil)
    }

    @Test func familiesAcceptTheirExtensions() {
        #expect(MediaContainer.mov.accepts(extension: ".M4V"))
        #expect(!MediaContainer.mp4.accepts(extension: ".mkv"))
        #expect(MediaContainer.webm.accepts(extension: ".mkv") && MediaContainer.matroska.accepts(extension: ".webm"))
        #expect(!MediaContainer.matroska.accepts(extension: ".mp4"))
        #expect(MediaContainer.avi.accepts(extension: ".avi") && !MediaContainer.avi.accepts(extension: ".mkv"))
        #expect(MediaContainer.allCases.filter(\.isISO) == [.mp4, .mov])
        #expect(MediaContainer.allCases.filter(\.isMatroska) == [.matroska, .webm])
    }

    @Test func resultsNameThemByTheirUsualExtension() throws {
        let names = try JSONEncoder().encode(MediaContainer.allCases)
        #expect(String(decoding: names, as: UTF8.self) == #"["mp4","mov","mkv","webm","avi"]"#)
        #expect(MediaContainer.allCases.map(\.fileExtension) == ["mp4", "mov", "mkv", "webm", "avi"])
    }
}

@testable import CamrecKit
@testable import Recover
import Foundation
import Testing

/// The names `camrec recover` reads and gives, and the requests it accepts.
@Suite struct RecoverNamingTests {
    @Test func partialNamesGiveTheirFinalName() {
        #expect(RecoverNaming.finalName(ofPartial: "movie.partial.mp4") == "movie.mp4")
        #expect(RecoverNaming.finalName(ofPartial: "cam/movie.partial-3.mkv") == "cam/movie.mkv")
        #expect(RecoverNaming.finalName(ofPartial: "/a.b/my movie.partial.MOV") == "/a.b/my movie.MOV")
        #expect(RecoverNaming.finalName(ofPartial: "long~.partial.mp4") == "long~.mp4")
        #expect(RecoverNaming.finalName(ofPartial: "movie.mp4") == nil)
        #expect(RecoverNaming.finalName(ofPartial: "movie.partial-.mp4") == nil)
        #expect(RecoverNaming.finalName(ofPartial: "movie.partial-x1.mp4") == nil)
        #expect(RecoverNaming.finalName(ofPartial: ".partial.mp4") == nil)
        #expect(RecoverNaming.finalName(ofPartial: "dir.partial/movie.mp4") == nil)
    }

    @Test func onlyCamrecsOwnPartialFilesAreRecognised() {
        for name in ["a.partial.mp4", "a.partial.mov", "a.partial.mkv", "a.partial-12.mp4", "a.partial.MKV", "x.y.partial.MP4"] {
            #expect(RecoverNaming.isPartialName(name), "\(name)")
        }
        for name in ["a.mp4", "a.partial.txt", "a.partial", ".partial.mp4", "a.partial-1", ".a.partial.mp4.recover-7.part", "a.partial-1x.mkv"] {
            #expect(!RecoverNaming.isPartialName(name), "\(name)")
        }
    }

    /// Issue 29 item 5: a recovered partial file never takes the name of the newer
    /// recording (NAME.EXT) nor another leftover's: NAME-recovered-STAMP.EXT, then -2, -3.
    @Test func item5_defaultOutputsSitBesideTheInputAndNeverTakeTheFinalName() {
        let stamp = "20261202-061500"
        func beside(_ input: String, _ container: MediaContainer) -> String {
            RecoverNaming.besideInput(input, container: container, stamp: stamp)
        }
        #expect(beside("cam/movie.partial.mp4", .mp4) == "cam/movie-recovered-20261202-061500.mp4")
        #expect(beside("movie.partial-2.mkv", .matroska) == "movie-recovered-20261202-061500.mkv")
        #expect(beside("clip.mov", .mov) == "clip-recovered.mov")
        // No extension, or one that is not the container's: the container's.
        #expect(beside("cam/movie.partial", .mp4) == "cam/movie-recovered-20261202-061500.mp4")
        #expect(beside("dump", .matroska) == "dump-recovered.mkv")
        #expect(beside("movie.partial.mkv", .mp4) == "movie-recovered-20261202-061500.mp4")
        #expect(beside("a.webm", .webm) == "a-recovered.webm")
        func output(_ input: String, _ destination: RecoverDestination) -> String {
            RecoverNaming.output(for: input, destination: destination, container: .mp4, stamp: stamp)
        }
        #expect(output("x/movie.partial.mp4", .folder("out")) == "out/movie-recovered-20261202-061500.mp4")
        #expect(output("movie.partial.mp4", .folder("/tmp/")) == "/tmp/movie-recovered-20261202-061500.mp4")
        #expect(output("movie.partial.mp4", .file("b.mp4")) == "b.mp4")
        // --in-place drops the .partial name; any other file keeps its own.
        #expect(output("cam/movie.partial.mp4", .inPlace) == "cam/movie-recovered-20261202-061500.mp4")
        #expect(output("cam/broken.mp4", .inPlace) == "cam/broken.mp4")
        #expect(RecoverNaming.numbered("cam/a-recovered-1.mp4", 1) == "cam/a-recovered-1.mp4")
        #expect(RecoverNaming.numbered("cam/a-recovered-1.mp4", 3) == "cam/a-recovered-1-3.mp4")
        #expect(RecoverNaming.stamp(of: "/").count == 15)
    }

    @Test func requestsAreCheckedBeforeAnyFileIsRead() throws {
        let folder = FileManager.default.temporaryDirectory.path
        #expect(try RecoverRequest(inputs: ["a"], output: nil, inPlace: false, force: false).destination == .besideInput)
        #expect(try RecoverRequest(inputs: ["a"], output: "b.mp4", inPlace: false, force: false).destination == .file("b.mp4"))
        #expect(try RecoverRequest(inputs: ["a", "b"], output: folder, inPlace: false, force: false).destination == .folder(folder))
        #expect(try RecoverRequest(inputs: ["a"], output: nil, inPlace: true, force: false).destination == .inPlace)
        func usage(_ inputs: [String], _ output: String?, _ inPlace: Bool) {
            do throws(CamrecError) {
                _ = try RecoverRequest(inputs: inputs, output: output, inPlace: inPlace, force: false)
                Issue.record("\(inputs) -o \(output ?? "-") in place \(inPlace) was accepted")
            } catch {
                #expect(error.status == .usage)
            }
        }
        usage([], nil, false)
        usage(["a"], "b.mp4", true)
        usage(["a", "b"], "b.mp4", false)
        usage(["a"], "/no/such/folder/", false)
    }

    @Test func containersAreToldFromTheirFirstBytes() {
        let box = { (type: String, brand: String) in [0, 0, 0, 16] + Array(type.utf8) + Array(brand.utf8) + [0, 0, 0, 0] as [UInt8] }
        #expect(MediaContainer.recoverable(head: box("ftyp", "isom")) == .mp4)
        #expect(MediaContainer.recoverable(head: box("ftyp", "qt  ")) == .mov)
        #expect(MediaContainer.recoverable(head: box("mdat", "abcd")) == .mp4)
        #expect(MediaContainer.recoverable(head: [0x1A, 0x45, 0xDF, 0xA3, 0x9F]) == .matroska)
        #expect(MediaContainer.recoverable(head: Array("hello, world, not a movie".utf8)) == nil)
        #expect(MediaContainer.recoverable(head: [0, 0, 0, 3] + Array("ftyp".utf8)) == nil)
        #expect(MediaContainer.recoverable(head: [0, 0]) == nil)
    }
}

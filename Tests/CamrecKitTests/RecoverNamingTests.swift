@testable import CamrecKit
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

    @Test func defaultOutputsSitBesideTheInput() {
        #expect(RecoverNaming.besideInput("cam/movie.partial.mp4", container: .mp4) == "cam/movie.mp4")
        #expect(RecoverNaming.besideInput("movie.partial-2.mkv", container: .mkv) == "movie.mkv")
        #expect(RecoverNaming.besideInput("clip.mov", container: .mov) == "clip-recovered.mov")
        // No extension, or one that is not the container's: the container's.
        #expect(RecoverNaming.besideInput("cam/movie.partial", container: .mp4) == "cam/movie.mp4")
        #expect(RecoverNaming.besideInput("dump", container: .mkv) == "dump-recovered.mkv")
        #expect(RecoverNaming.besideInput("movie.partial.mkv", container: .mp4) == "movie.mp4")
        #expect(RecoverNaming.besideInput("a.webm", container: .webm) == "a-recovered.webm")
        #expect(RecoverNaming.output(for: "x/movie.partial.mp4", destination: .folder("out"), container: .mp4) == "out/movie.mp4")
        #expect(RecoverNaming.output(for: "movie.partial.mp4", destination: .folder("/tmp/"), container: .mp4) == "/tmp/movie.mp4")
        #expect(RecoverNaming.output(for: "movie.partial.mp4", destination: .file("b.mp4"), container: .mp4) == "b.mp4")
        #expect(RecoverNaming.output(for: "movie.partial.mp4", destination: .inPlace, container: .mp4) == "movie.partial.mp4")
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
        #expect(RecoverContainer.sniff(box("ftyp", "isom")) == .mp4)
        #expect(RecoverContainer.sniff(box("ftyp", "qt  ")) == .mov)
        #expect(RecoverContainer.sniff(box("mdat", "abcd")) == .mp4)
        #expect(RecoverContainer.sniff([0x1A, 0x45, 0xDF, 0xA3, 0x9F]) == .mkv)
        #expect(RecoverContainer.sniff(Array("hello, world, not a movie".utf8)) == nil)
        #expect(RecoverContainer.sniff([0, 0, 0, 3] + Array("ftyp".utf8)) == nil)
        #expect(RecoverContainer.sniff([0, 0]) == nil)
    }
}

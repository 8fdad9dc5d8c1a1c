@testable import CamrecKit
@testable import Trim
import Foundation
import Testing

/// The GStreamer input's partial index of a cut agrees with its whole-file index.
@Suite("GStreamer input window index", .serialized)
struct GStreamerInputWindowTests {
    @Test("window = the matching part of the full index", arguments: ["mp4", "mkv", "mov"])
    func windowMatchesFullIndex(container: String) throws {
        let media = try MediaFactory()
        let input = try media.ffmpeg("in.\(container)", seconds: 6, videoOptions: TrimBFrameTests.bFrames, audio: true)
        let full = try GStreamerInput.indexWholeFile(path: input)
        let window = try #require(try GStreamerInput.indexWindow(path: input, start: 2_400_000_000, end: 4_100_000_000))
        #expect(window.presentationOffset == full.presentationOffset)
        #expect(window.audioPresentationOffset == full.audioPresentationOffset)
        #expect(window.audioCaps != nil)
        let first = try #require(window.video.first)
        #expect(first.isKeyframe && first.isIDR)
        #expect(first.pts - window.presentationOffset <= 2_400_000_000)
        let start = try #require(full.video.firstIndex { $0.pts == first.pts })
        let matching = Array(full.video[start..<min(full.video.count, start + window.video.count)])
        #expect(window.video.map(\.pts) == matching.map(\.pts))
        #expect(window.video.map(\.isKeyframe) == matching.map(\.isKeyframe))
        #expect(window.video.map(\.isIDR) == matching.map(\.isIDR))
        if container != "mkv" { #expect(window.video.map(\.dts) == matching.map(\.dts)) }
        #expect((window.video.last?.pts ?? 0) - window.presentationOffset > 4_100_000_000)
    }

    @Test func startPastTheEndHasNoWindow() throws {
        let media = try MediaFactory()
        let input = try media.camrecLike("in.mp4", seconds: 2, audio: false)
        #expect(try GStreamerInput.indexWindow(path: input, start: 5_000_000_000, end: 6_000_000_000) == nil)
    }

    @Test func parameterSetsFromAvcC() throws {
        let media = try MediaFactory()
        let input = try media.camrecLike("in.mp4", seconds: 1, audio: false)
        let index = try GStreamerInput.indexWholeFile(path: input)
        let sets = try #require(index.codecData.flatMap { H264ParameterSets(avcC: $0) })
        #expect(sets.sequenceSets.count == 1)
        #expect(sets.pictureSets.count == 1)
        #expect(sets.usedIDs == [0])
        #expect(sets.freeID == 1)
        let access = H264ParameterSets.startCode + [0x09, 0xF0] + H264ParameterSets.startCode + [0x65, 0x88]
        let joined = H264ParameterSets.inserting(sets.annexB, beforeFirstSliceOf: access)
        #expect(H264Bitstream.annexBUnits(joined).compactMap { $0.first.map { $0 & 0x1F } } == [9, 7, 8, 5])
    }
}

@testable import CamrecKit
import CamrecCore
import GStreamer
import Testing

/// ``MovieMuxers`` finds the movie's MP4 muxer wherever the recording's pipeline has it
/// (the element named "mux" itself, or inside a segmented run's splitmuxsink) and has
/// ``FragmentRepair`` watch it. (Each later segment's muxer, announced by splitmuxsink, is
/// checked end to end: CaptureTimeTests' Matroska segments get their dates on it.)
@Suite("Fragment repair: where the muxer is")
struct FragmentRepairTests {
    static func installed(_ output: String) throws -> Bool {
        try Runtime.initialize()
        let pipeline = try Pipeline.withBuiltIns("videotestsrc ! x264enc ! h264parse ! " + output)
        let muxers = MovieMuxers(in: pipeline)
        defer { muxers.remove() }
        return muxers.watched == 1
    }

    @Test func aMovieMuxerNamedMuxIsWatched() throws {
        #expect(try Self.installed(MediaContainer.mp4.muxer + " name=mux ! fakesink"))
        #expect(try Self.installed(MediaContainer.mov.muxer + " name=mux ! fakesink"))
    }

    @Test func theMuxerInsideASplitmuxsinkIsWatched() throws {
        #expect(try Self.installed(MediaContainer.mp4.splitMuxer + " name=mux"))
    }

    @Test func otherContainersAreLeftAlone() throws {
        #expect(try !Self.installed(MediaContainer.matroska.muxer + " name=mux ! fakesink"))
        #expect(try !Self.installed(MediaContainer.matroska.splitMuxer + " name=mux"))
        #expect(try !Self.installed(MediaContainer.mp4.muxer + " name=other ! fakesink"))
    }
}

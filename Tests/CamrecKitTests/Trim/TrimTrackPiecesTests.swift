@testable import CamrecKit
@testable import Trim
import MP4
import Testing

/// The pieces that keep every track, with plain values: cues and timed samples cut to the
/// output's window, the timecode rewritten, track references mapped to the output's ids,
/// subtitle cues placed as a demuxer delivers them, and what each muxer writes.
@Suite("Trim track pieces")
struct TrimTrackPiecesTests {
    /// Cues at 1000 ticks a second: [0.5, 1.5), a gap as an empty sample [1.5, 1.8), [1.8, 2.6).
    static let cues = [
        TimedTrackCut.Item(presentationTime: 0, duration: 500, offset: 100, size: 2),
        TimedTrackCut.Item(presentationTime: 500, duration: 1000, offset: 102, size: 8),
        TimedTrackCut.Item(presentationTime: 1500, duration: 300, offset: 110, size: 2),
        TimedTrackCut.Item(presentationTime: 1800, duration: 800, offset: 112, size: 9),
    ]

    @Test("a cue across the cut is shortened to start at the output's 0")
    func cueAcrossTheStart() throws {
        let cut = try #require(TimedTrackCut.cut(Self.cues, from: 1300, to: 2800))
        #expect(cut.leadingGap == 0)
        #expect(cut.samples.map(\.duration) == [200, 300, 800])
        #expect(cut.samples.map(\.source) == [.file(offset: 102, size: 8), .file(offset: 110, size: 2), .file(offset: 112, size: 9)])
        #expect(cut.edits(timescale: 1000, movieScale: 600) == [Edit(segmentDuration: 780, mediaTime: 0)])
    }

    @Test("the last cue ends with the output; a window after a cue's start leaves a gap")
    func cueAcrossTheEndAndAGap() throws {
        let cut = try #require(TimedTrackCut.cut(Array(Self.cues[1...1] + Self.cues[3...3]), from: 1600, to: 2000))
        #expect(cut.leadingGap == 200)
        #expect(cut.samples.map(\.duration) == [200])
        #expect(cut.edits(timescale: 1000, movieScale: 1000) == [
            Edit(segmentDuration: 200, mediaTime: -1), Edit(segmentDuration: 200, mediaTime: 0),
        ])
        #expect(TimedTrackCut.cut(Self.cues, from: 3000, to: 4000) == nil)
    }

    @Test("a text track with no cue in the window keeps one empty sample")
    func emptyText() {
        let cut = TimedTrackCut.emptyText(format: "tx3g", from: 3000, to: 4500)
        #expect(cut?.samples == [OutputSample(source: .bytes([0, 0]), duration: 1500, compositionOffset: 0, isSync: true)])
        #expect(TimedTrackCut.emptyText(format: "mebx", from: 3000, to: 4500) == nil)
    }

    /// A `tmcd` sample entry: `timescale` over `frameDuration` frames a second.
    static func timecodeEntry(timescale: UInt32, frameDuration: UInt32, frames: UInt8) -> [UInt8] {
        func word(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * UInt32($0))) } }
        return word(34) + Array("tmcd".utf8) + [0, 0, 0, 0, 0, 0, 0, 1] + word(0) + word(0)
            + word(timescale) + word(frameDuration) + [frames, 0]
    }

    @Test("the timecode becomes the first frame's: frames elapsed at its own rate")
    func timecode() throws {
        // One sample over the whole movie (media at 600 ticks a second), frame number 108000
        // (01:00:00:00 at 30 fps).
        let items = [TimedTrackCut.Item(presentationTime: 0, duration: 1800, offset: 4000, size: 4)]
        let entry = Self.timecodeEntry(timescale: 30, frameDuration: 1, frames: 30)
        let cut = try #require(TimedTrackCut.timecode(items, sampleEntry: entry, timescale: 600, from: 780, to: 1680) { _ in 108_000 })
        // 1.3 s: 39 frames later.
        #expect(cut.samples == [OutputSample(source: .bytes([0, 1, 0xA6, 0x07]), duration: 900, compositionOffset: 0, isSync: true)])
        // NTSC: 30000/1001, 1.3013 s is 39 frames.
        let ntsc = Self.timecodeEntry(timescale: 30000, frameDuration: 1001, frames: 30)
        let drop = try #require(TimedTrackCut.timecode(items, sampleEntry: ntsc, timescale: 30000, from: 39039, to: 60000) { _ in 100 })
        #expect(drop.samples.first?.source == .bytes([0, 0, 0, 139]))
        #expect(TimedTrackCut.timecode(items, sampleEntry: [0, 0, 0, 8] + Array("text".utf8), timescale: 600, from: 0, to: 10) { _ in 1 } == nil)
    }

    @Test("track references are mapped to the output's ids; those to dropped tracks go")
    func trackReferences() throws {
        let references = [
            TrackReferences.Reference(type: "tmcd", ids: [5]),
            TrackReferences.Reference(type: "chap", ids: [7, 4]),
        ]
        let box = try #require(TrackReferences.box(references, outputID: [1: 1, 5: 3, 4: 2]))
        #expect(box == [0, 0, 0, 32] + Array("tref".utf8) + [0, 0, 0, 12] + Array("tmcd".utf8) + [0, 0, 0, 3]
            + [0, 0, 0, 12] + Array("chap".utf8) + [0, 0, 0, 2])
        #expect(TrackReferences.box(references, outputID: [1: 1]) == nil)
        // Read back from a movie box holding one track with that reference.
        let tkhd: [UInt8] = [0, 0, 0, 92] + Array("tkhd".utf8) + [0, 0, 0, 3] + [0, 0, 0, 0, 0, 0, 0, 0]
            + [0, 0, 0, 9] + Array(repeating: 0, count: 68)
        let trak = [UInt8(0), 0, 0, UInt8(8 + tkhd.count + box.count)] + Array("trak".utf8) + tkhd + box
        let moov = [UInt8(0), 0, 0, UInt8(8 + trak.count)] + Array("moov".utf8) + trak
        #expect(TrackReferences.read(moov: moov) == [9: [
            TrackReferences.Reference(type: "tmcd", ids: [3]), TrackReferences.Reference(type: "chap", ids: [2]),
        ]])
    }

    @Test("subtitle cues placed as they come: cut to the window, shifted to its start")
    func cuePlacer() {
        let second: Int64 = 1_000_000_000
        var placer = CuePlacer(window: AudioWindow(start: 13 * second / 10, end: 28 * second / 10, audioPresentationOffset: 0))
        #expect(placer.place(0, duration: second / 2) == nil)
        #expect(placer.place(second / 2, duration: second).map { $0 == (0, second / 5) } == true)
        #expect(placer.place(18 * second / 10, duration: 8 * second / 10).map { $0 == (second / 2, 8 * second / 10) } == true)
        #expect(placer.place(27 * second / 10, duration: second).map { $0 == (14 * second / 10, second / 10) } == true)
        #expect(placer.place(28 * second / 10, duration: second) == nil)
        #expect(placer.isFinished)
        #expect(placer.place(29 * second / 10, duration: second) == nil)
    }

    @Test func markupBecomesPlainText() {
        #expect(StreamCopier.plainText(fromMarkup: Array("Tom &amp; Jerry &lt;3 <i>yes</i>".utf8))
            == Array("Tom & Jerry <3 <i>yes</i>".utf8))
    }

    @Test("what GStreamer 1.22's muxers take, and the kinds of streams")
    func muxerSupport() {
        #expect(MuxerSupport.accepts(.mp4, .audio, mediaType: "audio/mpeg", mpegVersion: 4))
        #expect(!MuxerSupport.accepts(.mp4, .audio, mediaType: "audio/x-raw"))
        #expect(MuxerSupport.accepts(.mov, .audio, mediaType: "audio/x-raw"))
        #expect(!MuxerSupport.accepts(.mp4, .audio, mediaType: "audio/x-vorbis"))
        #expect(MuxerSupport.accepts(.matroska, .audio, mediaType: "audio/x-vorbis"))
        #expect(MuxerSupport.accepts(.mp4, .subtitle, mediaType: "text/x-raw", format: "utf8"))
        #expect(!MuxerSupport.accepts(.mp4, .subtitle, mediaType: "application/x-ass"))
        #expect(MuxerSupport.accepts(.matroska, .subtitle, mediaType: "application/x-ass"))
        #expect(!MuxerSupport.accepts(.mp4, .video, mediaType: "video/mpeg", mpegVersion: 2))
        #expect(MuxerSupport.accepts(.matroska, .video, mediaType: "video/mpeg", mpegVersion: 2))
        #expect(MuxerSupport.accepts(.mp4, .video, mediaType: "video/x-vp9"))
        #expect(!MuxerSupport.accepts(.mp4, .video, mediaType: "video/x-vp8"))
        #expect(DemuxedStream.kind(of: "audio/x-opus") == .audio)
        #expect(DemuxedStream.kind(of: "text/x-raw") == .subtitle)
        #expect(DemuxedStream.kind(of: "application/x-ass") == .subtitle)
        #expect(DemuxedStream.kind(of: "video/x-h264") == .video)
        #expect(DemuxedStream.kind(of: "closedcaption/x-cea-608") == .data)
    }
}

import CamrecCore
import FoundationEssentials
import GStreamer
import MP4
import MediaValues

/// The streams a ``GStreamerTrimWriter`` copies besides the video: every sound track (each
/// placed through its own edit list, cut at the same instant as the video) and every
/// subtitle stream (cues shortened to the output's window), as far as the output's muxer
/// can write them. What cannot be kept is named, with the reason.
struct StreamCopier {
    /// One copied stream.
    struct Stream {
        /// Its place among the reader's streams and the muxer's.
        var position: Int
        var source: DemuxedStream
        /// The caps the muxer is given.
        var caps: Caps
        var placer: Placer
        var done = false
        var packets = 0
        /// Pango markup (how matroskademux gives SRT) turned back into plain UTF-8 text.
        var unescapesMarkup: Bool
    }

    /// Where a stream's packets go on the output's timeline.
    enum Placer {
        case audio(AudioPlacer)
        case cues(CuePlacer)

        var isFinished: Bool {
            switch self {
            case .audio(let placer): placer.isFinished
            case .cues(let placer): placer.isFinished
            }
        }
    }

    private(set) var streams: [Stream] = []
    /// What was not kept.
    private(set) var notKept = WrittenMovie()

    /// The streams of `index` that `outputContainer`'s muxer can write, placed in `timeline`'s window.
    init(index: FrameIndex, inputPath: String, timeline: OutputTimeline, outputContainer: MediaContainer) {
        let muxer = outputContainer.muxerFactory
        for stream in index.streams {
            let label = "stream \(stream.padName)"
            guard let caps = try? Caps(stream.caps) else {
                notKept.drop(label, kind: stream.kind, codec: stream.mediaType, because: "its caps cannot be read")
                continue
            }
            let unescapes = stream.mediaType == "text/x-raw" && caps.string("format") == "pango-markup"
            let window = AudioWindow(
                start: timeline.audio.start, end: timeline.audio.end, audioPresentationOffset: stream.presentationOffset
            )
            let placer: Placer
            let padKind: MuxerSupport.PadKind
            switch stream.kind {
            case .audio:
                placer = .audio(AudioPlacer(window: window))
                padKind = .audio
            case .subtitle:
                placer = .cues(CuePlacer(window: window))
                padKind = .subtitle
            case .video:
                notKept.drop(label, kind: stream.kind, codec: stream.mediaType, because: "trim cuts one video track (the first)")
                continue
            case .timecode, .data:
                notKept.drop(label, kind: stream.kind, codec: stream.mediaType, because: "\(muxer) writes no such stream")
                continue
            }
            guard MuxerSupport.accepts(outputContainer, padKind, caps: caps) else {
                let other = outputContainer == .matroska ? "" : " (write .mkv to keep it)"
                notKept.drop(label, kind: stream.kind, codec: stream.mediaType, because: "\(muxer) cannot write it\(other)")
                continue
            }
            let muxerCaps = unescapes ? (try? Caps("text/x-raw,format=utf8")) ?? caps : caps
            streams.append(Stream(
                position: streams.count, source: stream, caps: muxerCaps, placer: placer, unescapesMarkup: unescapes
            ))
        }
        notKept.warnings += Self.hiddenTracks(of: inputPath, container: index.container)
    }

    /// The demuxer pad names to read, in order.
    var padNames: [String] { streams.map(\.source.padName) }

    /// The muxer pads to request, in order.
    var muxerStreams: [(kind: MuxerSupport.PadKind, caps: Caps)] {
        streams.map { ($0.source.kind == .audio ? .audio : .subtitle, $0.caps) }
    }

    /// The tracks written, in order, with their packets.
    var written: [TrimTrack] {
        streams.map { TrimTrack(kind: $0.source.kind, codec: $0.source.mediaType, samples: $0.packets) }
    }

    /// Whether every sound stream has all it needs (a packet past the window, or its end).
    var soundDone: Bool { streams.allSatisfy { $0.source.kind != .audio || $0.done } }

    /// Places and pushes one packet of stream `position`.
    mutating func push(_ sample: GStreamer.Sample, of position: Int, to muxer: MovieMuxer) throws {
        guard !streams[position].done, let buffer = sample.buffer, let pts = buffer.pts else { return }
        let base = Int64(MovieMuxer.timelineStart)
        var output = buffer
        switch streams[position].placer {
        case .audio(var placer):
            let placed = placer.place(Int64(pts))
            streams[position].placer = .audio(placer)
            guard let time = placed else {
                streams[position].done = placer.isFinished
                return
            }
            output = try Self.stamped(output, pts: UInt64(base + time), duration: output.duration)
        case .cues(var placer):
            let placed = placer.place(Int64(pts), duration: Int64(buffer.duration ?? 0))
            streams[position].placer = .cues(placer)
            guard let cue = placed else {
                streams[position].done = placer.isFinished
                return
            }
            if streams[position].unescapesMarkup {
                output = buffer.replacingBytes(Self.plainText(fromMarkup: buffer.bytes)) ?? buffer
            }
            output = try Self.stamped(output, pts: UInt64(base + cue.pts), duration: cue.duration > 0 ? UInt64(cue.duration) : nil)
        }
        try muxer.push(output, stream: position)
        streams[position].packets += 1
    }

    /// Marks stream `position` as ended by its demuxer.
    mutating func end(_ position: Int) { streams[position].done = true }

    // MARK: Helpers

    /// `buffer` at `pts` (DTS the same: these streams decode in order) lasting `duration`,
    /// on a copy of its metadata.
    private static func stamped(_ buffer: Buffer, pts: UInt64, duration: UInt64?) throws -> Buffer {
        guard let stamped = buffer.edited({ $0.pts = pts; $0.dts = pts; $0.duration = duration }) else {
            throw CamrecError.failed("out of memory for a packet's times")
        }
        return stamped
    }

    /// Pango markup as plain text: the five XML entities unescaped (tags such as `<i>`, which
    /// SubRip uses too, stay).
    static func plainText(fromMarkup bytes: [UInt8]) -> [UInt8] {
        var text = String(decoding: bytes, as: UTF8.self)
        for (entity, character) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&apos;", "'"), ("&amp;", "&")] {
            text = text.replacing(entity, with: character)
        }
        return Array(text.utf8)
    }

    /// The tracks of an MP4/MOV input that qtdemux does not give (a QuickTime timecode,
    /// timed metadata, hint tracks), as warnings: GStreamer cannot carry them over.
    static func hiddenTracks(of path: String, container: MediaContainer) -> [String] {
        guard container != .matroska else { return [] }
        var notes = WrittenMovie()
        for (position, track) in MovieTrackList.read(path: path).enumerated()
        where !["vide", "soun", "text", "sbtl", "subt", "clcp"].contains(track.handler) {
            let kind: TrimTrack.Kind = track.handler == "tmcd" ? .timecode : .data
            notes.drop(
                "track \(position + 1)", kind: kind, codec: track.format,
                because: "GStreamer's demuxer does not read it (trimming to the input's own container in accurate or"
                    + " keyframe mode keeps it)"
            )
        }
        return notes.warnings
    }
}

/// The tracks of an MP4/MOV movie box by handler and sample description type, read leniently
/// (fragmented movies too): what a demuxer may not show.
enum MovieTrackList {
    struct Entry: Equatable {
        var handler: String
        var format: String
    }

    static func read(path: String) -> [Entry] {
        guard let file = try? SampleFile(path: path), let moov = (try? Box.topLevel(in: file))?.first("moov"),
              moov.end - moov.start < 64 << 20,
              let bytes = try? file.read(offset: UInt64(moov.start), count: moov.end - moov.start),
              let top = Box.children(of: bytes, in: 0..<bytes.count)?.first("moov"),
              let children = Box.children(of: bytes, in: top.payload)
        else { return [] }
        return children.filter { $0.type == "trak" }.compactMap { trak in
            guard let mdia = Box.children(of: bytes, in: trak.payload)?.first("mdia"),
                  let media = Box.children(of: bytes, in: mdia.payload), let hdlr = media.first("hdlr"),
                  hdlr.payloadStart + 12 <= hdlr.end
            else { return nil }
            let handler = String(decoding: bytes[(hdlr.payloadStart + 8)..<(hdlr.payloadStart + 12)], as: UTF8.self)
            var format = ""
            if let minf = media.first("minf"), let stbl = Box.children(of: bytes, in: minf.payload)?.first("stbl"),
               let stsd = Box.children(of: bytes, in: stbl.payload)?.first("stsd"), stsd.payloadStart + 16 <= stsd.end {
                format = String(decoding: bytes[(stsd.payloadStart + 12)..<(stsd.payloadStart + 16)], as: UTF8.self)
            }
            return Entry(handler: handler, format: format)
        }
    }
}

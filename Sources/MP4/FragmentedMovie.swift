/// What a fragmented MP4 (such as a hybrid MP4 that was never finalised) holds of one
/// video track, counting only the fragments that are complete on disk.
///
/// A recording that stops without finalising (an abort, a full disk) leaves a movie box
/// and fragments, the last of which may be cut short. mp4mux's hybrid mode (1.22) writes
/// `ftyp`, the first fragment's `mdat`, a `moov` whose sample table holds that fragment,
/// then `mdat`+`moof` pairs with the `moof` *after* its data; the usual fragmented layout
/// puts `moof` first. Both are read. Players read the complete fragments; this reads them
/// too, so that a result can say exactly what the file holds, and where the complete part
/// ends so that a torn tail can be cut off.
public struct FragmentedMovie: Sendable, Equatable {
    /// Video samples in complete fragments.
    public var frames: Int
    /// Their total duration, in seconds (from the first fragment's decode time to the end
    /// of the last sample).
    public var seconds: Double
    /// The byte offset just past the last complete fragment (or past `moov` when there
    /// is none): everything after it is a torn fragment.
    public var completeEnd: UInt64

    /// Scans `path`. Throws when the file has no movie box or no video track (nothing of
    /// it can play).
    public static func scan(path: String) throws(MP4Error) -> FragmentedMovie {
        let file = try SampleFile(path: path)
        var video: VideoTrack?
        var pendingFragment: [UInt8]?   // a moof whose mdat follows
        var unclaimedData = false         // an mdat whose moof follows
        var summary = Summary()
        var completeEnd: UInt64 = 0
        // A torn last box (its size runs past the end) is where the walk stops.
        for box in try Box.topLevel(in: file) {
            let (offset, size) = (UInt64(box.start), UInt64(box.end - box.start))
            switch box.type {
            case "moov":
                guard size < 1 << 30 else { throw MP4Error("the movie box is too large") }
                let moov = try file.read(offset: offset, count: Int(size))
                let track = try VideoTrack(moov: moov)
                summary.add(sampleTable: moov, of: track)
                video = track
                unclaimedData = false
                completeEnd = offset + size
            case "moof":
                guard size < 1 << 26 else { throw MP4Error("a movie fragment is too large") }
                let fragment = try file.read(offset: offset, count: Int(size))
                if unclaimedData, let video {
                    summary.add(fragment: fragment, of: video)
                    completeEnd = offset + size
                    unclaimedData = false
                } else {
                    pendingFragment = fragment
                }
            case "mdat":
                if let fragment = pendingFragment, let video {
                    summary.add(fragment: fragment, of: video)
                    completeEnd = offset + size
                } else {
                    unclaimedData = true
                }
                pendingFragment = nil
            default:
                if pendingFragment == nil, !unclaimedData { completeEnd = offset + size }
            }
        }
        guard let video else { throw MP4Error("the file has no movie box (moov): nothing of it plays") }
        return FragmentedMovie(frames: summary.frames, seconds: summary.seconds(timescale: video.timescale),
                               completeEnd: completeEnd)
    }

    /// The fields of `moov` that the scan needs: the video track and its defaults.
    private struct VideoTrack {
        var id: UInt32
        var timescale: UInt32
        var defaultDuration: UInt32 = 0
        /// The `stts` box of the track (the samples `moov` itself describes).
        var timeToSample: Box?

        init(moov bytes: [UInt8]) throws(MP4Error) {
            guard let top = Box.children(of: bytes, in: 0..<bytes.count), let moov = top.first("moov"),
                  let children = Box.children(of: bytes, in: moov.payload)
            else { throw MP4Error("the movie box is corrupt") }
            var found: (id: UInt32, timescale: UInt32, stts: Box?)?
            for trak in children where trak.type == "trak" {
                guard let parts = Box.children(of: bytes, in: trak.payload),
                      let tkhd = parts.first("tkhd"), let mdia = parts.first("mdia"),
                      let media = Box.children(of: bytes, in: mdia.payload),
                      let mdhd = media.first("mdhd"), let hdlr = media.first("hdlr")
                else { continue }
                var handler = ByteReader(bytes, range: hdlr.payload)
                guard handler.skip(8), handler.fourCC() == "vide" else { continue }
                var header = ByteReader(bytes, range: tkhd.payload)
                guard let version = header.uint8(), header.skip(3), header.skip(version == 1 ? 16 : 8),
                      let id = header.uint32() else { continue }
                var mediaHeader = ByteReader(bytes, range: mdhd.payload)
                guard let mediaVersion = mediaHeader.uint8(), mediaHeader.skip(3),
                      mediaHeader.skip(mediaVersion == 1 ? 16 : 8), let timescale = mediaHeader.uint32(), timescale > 0
                else { continue }
                let minf = media.first("minf").flatMap { Box.children(of: bytes, in: $0.payload) }
                let stbl = minf?.first("stbl").flatMap { Box.children(of: bytes, in: $0.payload) }
                found = (id, timescale, stbl?.first("stts"))
                break
            }
            guard let found else { throw MP4Error("the movie has no video track") }
            id = found.id
            timescale = found.timescale
            timeToSample = found.stts
            // trex in mvex carries the default sample duration of fragments.
            if let mvex = children.first("mvex"), let extends = Box.children(of: bytes, in: mvex.payload) {
                for trex in extends where trex.type == "trex" {
                    var reader = ByteReader(bytes, range: trex.payload)
                    guard reader.skip(4), let track = reader.uint32(), track == id, reader.skip(4),
                          let duration = reader.uint32() else { continue }
                    defaultDuration = duration
                }
            }
        }
    }

    /// Frames and time added up over complete fragments.
    private struct Summary {
        var frames = 0
        var firstDecodeTime: UInt64?
        var end: UInt64 = 0

        /// The samples of the movie box's own sample table (the first fragment of a hybrid MP4).
        mutating func add(sampleTable bytes: [UInt8], of video: VideoTrack) {
            guard let stts = video.timeToSample else { return }
            var reader = ByteReader(bytes, range: stts.payload)
            guard reader.skip(4), let entries = reader.uint32() else { return }
            if firstDecodeTime == nil { firstDecodeTime = 0 }
            for _ in 0..<entries {
                guard let count = reader.uint32(), let delta = reader.uint32() else { break }
                frames += Int(count)
                end += UInt64(count) * UInt64(delta)
            }
        }

        mutating func add(fragment bytes: [UInt8], of video: VideoTrack) {
            guard let top = Box.children(of: bytes, in: 0..<bytes.count), let moof = top.first("moof"),
                  let children = Box.children(of: bytes, in: moof.payload) else { return }
            for traf in children where traf.type == "traf" {
                guard let parts = Box.children(of: bytes, in: traf.payload), let tfhd = parts.first("tfhd") else { continue }
                var header = ByteReader(bytes, range: tfhd.payload)
                guard header.skip(1), let flagBytes = header.take(3), let track = header.uint32(), track == video.id
                else { continue }
                let flags = UInt32(flagBytes[0]) << 16 | UInt32(flagBytes[1]) << 8 | UInt32(flagBytes[2])
                var defaultDuration = video.defaultDuration
                if flags & 0x01 != 0 { _ = header.skip(8) }   // base-data-offset
                if flags & 0x02 != 0 { _ = header.skip(4) }   // sample-description-index
                if flags & 0x08 != 0, let duration = header.uint32() { defaultDuration = duration }
                var time: UInt64 = end
                if let tfdt = parts.first("tfdt") {
                    var reader = ByteReader(bytes, range: tfdt.payload)
                    if let version = reader.uint8(), reader.skip(3),
                       let base = version == 1 ? reader.uint64() : reader.uint32().map(UInt64.init) {
                        time = base
                    }
                }
                if firstDecodeTime == nil { firstDecodeTime = time }
                for trun in parts where trun.type == "trun" {
                    var reader = ByteReader(bytes, range: trun.payload)
                    guard reader.skip(1), let runFlagBytes = reader.take(3), let count = reader.uint32() else { continue }
                    let runFlags = UInt32(runFlagBytes[1]) << 8 | UInt32(runFlagBytes[2])
                    if runFlags & 0x001 != 0 { _ = reader.skip(4) }   // data-offset
                    if runFlags & 0x004 != 0 { _ = reader.skip(4) }   // first-sample-flags
                    let perSample = [0x100, 0x200, 0x400, 0x800].filter { runFlags & UInt32($0) != 0 }.count * 4
                    for _ in 0..<count {
                        var duration = defaultDuration
                        if runFlags & 0x100 != 0 {
                            guard let value = reader.uint32() else { break }
                            duration = value
                            _ = reader.skip(perSample - 4)
                        } else {
                            _ = reader.skip(perSample)
                        }
                        time += UInt64(duration)
                        frames += 1
                    }
                }
                end = time
            }
        }

        func seconds(timescale: UInt32) -> Double {
            guard let first = firstDecodeTime, end > first else { return 0 }
            return Double(end - first) / Double(timescale)
        }
    }
}

/// The defaults a movie box gives each track's fragments (`trex` in `mvex`).
struct TrackExtends: Sendable, Equatable {
    var descriptionIndex: UInt32 = 1
    var duration: UInt32 = 0
    var size: UInt32 = 0
    var flags: UInt32 = 0

    /// The `trex` boxes of a movie box, by track id.
    static func read(moov bytes: [UInt8]) -> [UInt32: TrackExtends] {
        guard let top = Box.children(of: bytes, in: 0..<bytes.count), let moov = top.first("moov"),
              let children = Box.children(of: bytes, in: moov.payload), let mvex = children.first("mvex"),
              let extends = Box.children(of: bytes, in: mvex.payload)
        else { return [:] }
        var result: [UInt32: TrackExtends] = [:]
        for trex in extends where trex.type == "trex" {
            var reader = ByteReader(bytes, range: trex.payload)
            guard reader.skip(4), let track = reader.uint32(), let index = reader.uint32(),
                  let duration = reader.uint32(), let size = reader.uint32(), let flags = reader.uint32()
            else { continue }
            result[track] = TrackExtends(descriptionIndex: index, duration: duration, size: size, flags: flags)
        }
        return result
    }
}

/// One sample of a track fragment, as its `trun` describes it.
struct FragmentSample: Sendable, Equatable {
    /// Where its bytes start in the file.
    var offset: UInt64
    /// Its size; nil when no box gives one (mp4mux 1.22 leaves it out of the last run of
    /// an audio fragment): the caller infers it from where the next data starts.
    var size: UInt32?
    /// Its duration; nil when no box gives one (the same mp4mux gap).
    var duration: UInt32?
    /// Presentation time minus decoding time.
    var compositionOffset: Int32
    /// Whether it is a sync sample.
    var isSync: Bool
}

/// The samples one track fragment (`traf`) adds to a track.
struct TrackFragment: Sendable, Equatable {
    /// The track id.
    var trackID: UInt32
    /// The decoding time of its first sample (`tfdt`), when given.
    var decodeTime: UInt64?
    /// Its samples, in decoding order.
    var samples: [FragmentSample]
}

/// Reads a movie fragment box (`moof`): its track fragments and their sample runs, with
/// every default resolved (`trun`, then `tfhd`, then the movie box's `trex`). Every read
/// is bounds-checked and every sum overflow-checked: garbage gives nil, never a trap.
enum MovieFragmentParser {
    /// The track fragments of the `moof` box `bytes`, which starts at `offset` in a file
    /// of `fileSize` bytes; nil when it is corrupt.
    static func parse(moof bytes: [UInt8], at offset: UInt64, fileSize: UInt64,
                      defaults: [UInt32: TrackExtends]) -> [TrackFragment]? {
        guard let top = Box.children(of: bytes, in: 0..<bytes.count), let moof = top.first("moof"),
              let children = Box.children(of: bytes, in: moof.payload)
        else { return nil }
        var fragments: [TrackFragment] = []
        // Where the previous track fragment's data ended: the base of the next one
        // without a base of its own (nil: not known, after a sample of unknown size).
        var previousEnd: UInt64? = offset
        var first = true
        for traf in children where traf.type == "traf" {
            guard let parts = Box.children(of: bytes, in: traf.payload), let tfhd = parts.first("tfhd") else { return nil }
            var header = ByteReader(bytes, range: tfhd.payload)
            guard header.skip(1), let flagBytes = header.take(3), let trackID = header.uint32() else { return nil }
            let flags = UInt32(flagBytes[0]) << 16 | UInt32(flagBytes[1]) << 8 | UInt32(flagBytes[2])
            let trex = defaults[trackID] ?? TrackExtends()
            var base: UInt64?
            if flags & 0x01 != 0 {
                guard let explicit = header.uint64() else { return nil }
                base = explicit
            } else if flags & 0x02_0000 != 0 || first {
                base = offset   // default-base-is-moof, or the first track fragment
            } else {
                base = previousEnd
            }
            var descriptionIndex = trex.descriptionIndex
            if flags & 0x02 != 0 {
                guard let index = header.uint32() else { return nil }
                descriptionIndex = index
            }
            var defaultDuration = trex.duration
            var defaultSize = trex.size
            var defaultFlags = trex.flags
            if flags & 0x08 != 0 {
                guard let value = header.uint32() else { return nil }
                defaultDuration = value
            }
            if flags & 0x10 != 0 {
                guard let value = header.uint32() else { return nil }
                defaultSize = value
            }
            if flags & 0x20 != 0 {
                guard let value = header.uint32() else { return nil }
                defaultFlags = value
            }
            // Only one sample description is copied: a fragment that uses another is not ours to copy.
            guard descriptionIndex <= 1 else { return nil }
            first = false
            var decodeTime: UInt64?
            if let tfdt = parts.first("tfdt") {
                var reader = ByteReader(bytes, range: tfdt.payload)
                guard let version = reader.uint8(), reader.skip(3),
                      let time = version == 1 ? reader.uint64() : reader.uint32().map(UInt64.init)
                else { return nil }
                decodeTime = time
            }
            var samples: [FragmentSample] = []
            var position = base
            for trun in parts where trun.type == "trun" {
                var reader = ByteReader(bytes, range: trun.payload)
                guard reader.skip(1), let runFlagBytes = reader.take(3), let count = reader.uint32() else { return nil }
                let runFlags = UInt32(runFlagBytes[0]) << 16 | UInt32(runFlagBytes[1]) << 8 | UInt32(runFlagBytes[2])
                if runFlags & 0x001 != 0 {
                    guard let dataOffset = reader.int32(), let base else { return nil }
                    position = add(base, Int64(dataOffset), limit: fileSize)
                    guard position != nil else { return nil }
                }
                var firstFlags: UInt32?
                if runFlags & 0x004 != 0 {
                    guard let value = reader.uint32() else { return nil }
                    firstFlags = value
                }
                let fields = [0x100, 0x200, 0x400, 0x800].filter { runFlags & UInt32($0) != 0 }.count
                // Each sample takes its fields' bytes, or at least a byte of the file.
                guard fields == 0 ? UInt64(count) <= fileSize : Int(count) <= reader.remaining / (4 * fields) else {
                    return nil
                }
                for index in 0..<Int(count) {
                    var duration = defaultDuration
                    var size = defaultSize
                    var sampleFlags = index == 0 ? firstFlags ?? defaultFlags : defaultFlags
                    var compositionOffset: Int32 = 0
                    if runFlags & 0x100 != 0 { guard let value = reader.uint32() else { return nil }; duration = value }
                    if runFlags & 0x200 != 0 { guard let value = reader.uint32() else { return nil }; size = value }
                    if runFlags & 0x400 != 0 { guard let value = reader.uint32() else { return nil }; sampleFlags = value }
                    if runFlags & 0x800 != 0 { guard let value = reader.int32() else { return nil }; compositionOffset = value }
                    // A sample whose size is unknown can only be the last of its run: the
                    // next one's place would depend on it.
                    guard let start = position else { return nil }
                    samples.append(FragmentSample(
                        offset: start, size: size == 0 ? nil : size, duration: duration == 0 ? nil : duration,
                        compositionOffset: compositionOffset, isSync: sampleFlags & 0x1_0000 == 0
                    ))
                    position = size == 0 ? nil : add(start, Int64(size), limit: fileSize)
                }
            }
            previousEnd = position
            fragments.append(TrackFragment(trackID: trackID, decodeTime: decodeTime, samples: samples))
        }
        return fragments
    }

    /// `base + delta` when it lies within `0...limit`; nil otherwise (garbage offsets).
    private static func add(_ base: UInt64, _ delta: Int64, limit: UInt64) -> UInt64? {
        guard base <= limit else { return nil }
        let sum = Int64(base) + delta   // both well inside Int64: base <= file size
        guard sum >= 0, UInt64(sum) <= limit else { return nil }
        return UInt64(sum)
    }
}

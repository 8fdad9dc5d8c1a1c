/// Makes a movie fragment box (`moof`) written by GStreamer's mp4mux/qtmux (1.22) state
/// every sample's size and duration, in exactly as many bytes as it had.
///
/// qtmux lists a track's samples in one run (`trun`) per stretch of the interleaved data.
/// It takes the fragment's first sample as the track fragment's defaults (`tfhd`) and,
/// when a later sample differs, drops that default and has the runs made so far state the
/// value. A run started after that whose samples all equal the dropped default states
/// nothing: a reader falls back on the movie's `trex`, which qtmux writes as 0. When such
/// a run is the last of its track fragment (a later sample would have fixed it), its
/// samples read as 0 bytes (ffmpeg stops with "error reading header": the whole partial
/// file is unreadable) or 0 ticks long. It befalls about one sound fragment in a few
/// hundred (an AAC packet exactly as long as the fragment's first) and every fragment of
/// silence. The final movie is not affected: qtmux writes its `moov` anew at the end.
///
/// The repair states the dropped default in `tfhd` again: the value qtmux meant (its first
/// sample's, which every earlier run states). The bytes that adds are won back by leaving
/// out what the defaults already say (a run's durations when all equal the default, a
/// first sample's flags equal to the default flags); what is left over becomes a `free`
/// box at the end of the `moof`. The box keeps its length because qtmux has already
/// counted every later offset in the file (the next fragment's, the final `moov`'s) with it.
public enum FragmentHeaderRepair {
    /// `moof` (one whole box) with every sample's size and duration stated, the same
    /// length; nil when nothing needs repair, or when it cannot be done in place.
    public static func repaired(_ moof: [UInt8]) -> [UInt8]? {
        var reader = ByteReader(moof)
        guard let size = reader.uint32(), Int(size) == moof.count, reader.fourCC() == "moof",
              let children = Box.children(of: moof, in: 8..<moof.count)
        else { return nil }
        var items: [MoofItem] = []
        var repairs = 0
        for child in children {
            guard child.type == "traf" else {
                items.append(.verbatim(Array(moof[child.start..<child.end])))
                continue
            }
            guard child.payloadStart == child.start + 8, var fragment = TrackFragmentBoxes(moof, traf: child) else { return nil }
            guard let added = fragment.restoreDefaults() else { return nil }
            repairs += added
            items.append(.fragment(fragment))
        }
        guard repairs > 0 else { return nil }
        var dropped: [(item: Int, run: Int)] = []
        for index in items.indices {
            guard case .fragment(var fragment) = items[index] else { continue }
            dropped += fragment.leaveOutDefaults().map { (index, $0) }
            items[index] = .fragment(fragment)
        }
        var leftover = moof.count - encode(items).count
        // Four bytes over cannot be a box of their own: a decode time of 64 bits takes
        // them, or one first sample's flags stay stated.
        if leftover == 4 {
            if let index = items.firstIndex(where: { $0.hasShortDecodeTime }), case .fragment(var fragment) = items[index] {
                fragment.decodeTimeVersion = 1
                items[index] = .fragment(fragment)
            } else if let (item, run) = dropped.first, case .fragment(var fragment) = items[item] {
                fragment.runs[run].flags |= SampleRun.firstSampleFlagsPresent
                items[item] = .fragment(fragment)
            } else {
                return nil
            }
            leftover = moof.count - encode(items).count
        }
        guard leftover == 0 || leftover >= 8 else { return nil }
        if leftover >= 8 { items.append(.verbatim(freeBox(size: leftover))) }
        let repaired = encode(items)
        return repaired.count == moof.count ? repaired : nil
    }

    private static func encode(_ items: [MoofItem]) -> [UInt8] {
        var writer = ByteWriter()
        writer.box("moof") { moof in
            for item in items {
                switch item {
                case .verbatim(let bytes): moof.append(bytes)
                case .fragment(let fragment): fragment.write(to: &moof)
                }
            }
        }
        return writer.bytes
    }

    private static func freeBox(size: Int) -> [UInt8] {
        var writer = ByteWriter()
        writer.box("free") { $0.append([UInt8](repeating: 0, count: size - 8)) }
        return writer.bytes
    }
}

/// A child of the `moof`: a track fragment taken apart, or a box copied as it is.
private enum MoofItem {
    case verbatim([UInt8])
    case fragment(TrackFragmentBoxes)

    var hasShortDecodeTime: Bool {
        if case .fragment(let fragment) = self { fragment.decodeTimeVersion == 0 && fragment.hasDecodeTime } else { false }
    }
}

/// A track fragment (`traf`) taken apart: its header, decode time and runs, with any other
/// box kept as it was, in order.
private struct TrackFragmentBoxes {
    var header: FragmentDefaults
    var decodeTimeVersion: UInt8 = 0
    var decodeTime: UInt64 = 0
    var hasDecodeTime = false
    var runs: [SampleRun] = []
    /// The children in order: which kind each is, and the bytes of those kept as they were.
    private var order: [Child] = []

    private enum Child {
        case header, decodeTime, run(Int), verbatim([UInt8])
    }

    init?(_ bytes: [UInt8], traf: Box) {
        guard let children = Box.children(of: bytes, in: traf.payload) else { return nil }
        var header: FragmentDefaults?
        var decodeTime: (version: UInt8, time: UInt64)?
        var runs: [SampleRun] = []
        var order: [Child] = []
        for child in children {
            switch child.type {
            case "tfhd":
                guard header == nil, let parsed = FragmentDefaults(bytes, box: child) else { return nil }
                header = parsed
                order.append(.header)
            case "tfdt":
                var reader = ByteReader(bytes, range: child.payload)
                guard decodeTime == nil, let version = reader.uint8(), version <= 1, reader.skip(3),
                      let time = version == 1 ? reader.uint64() : reader.uint32().map(UInt64.init), reader.remaining == 0
                else { return nil }
                decodeTime = (version, time)
                order.append(.decodeTime)
            case "trun":
                guard let run = SampleRun(bytes, box: child) else { return nil }
                order.append(.run(runs.count))
                runs.append(run)
            default:
                order.append(.verbatim(Array(bytes[child.start..<child.end])))
            }
        }
        guard let header else { return nil }
        self.header = header
        self.runs = runs
        self.order = order
        if let decodeTime {
            (decodeTimeVersion, self.decodeTime, hasDecodeTime) = (decodeTime.version, decodeTime.time, true)
        }
    }

    /// States again each default that a run relies on but the header no longer holds, as
    /// the first sample's value; how many it stated, or nil when the first run does not
    /// state the value either (not the fault this repairs).
    mutating func restoreDefaults() -> Int? {
        var added = 0
        for field in [SampleField.duration, .size] where header[field] == nil {
            guard runs.contains(where: { !$0.states(field) }) else { continue }
            guard let first = runs.first, first.states(field), let value = first.samples.first?[field] else { return nil }
            header[field] = value
            added += 1
        }
        return added
    }

    /// Leaves out of each run what the header's defaults already say; the runs whose first
    /// sample's flags were left out.
    mutating func leaveOutDefaults() -> [Int] {
        var firstFlagsLeftOut: [Int] = []
        for index in runs.indices {
            for field in [SampleField.duration, .size] {
                if let value = header[field], runs[index].states(field), runs[index].samples.allSatisfy({ $0[field] == value }) {
                    runs[index].flags &= ~field.runFlag
                }
            }
            if let flags = header.sampleFlags, runs[index].flags & SampleRun.firstSampleFlagsPresent != 0,
               runs[index].firstSampleFlags == flags {
                runs[index].flags &= ~SampleRun.firstSampleFlagsPresent
                firstFlagsLeftOut.append(index)
            }
        }
        return firstFlagsLeftOut
    }

    func write(to writer: inout ByteWriter) {
        writer.box("traf") { traf in
            for child in order {
                switch child {
                case .header: header.write(to: &traf)
                case .decodeTime:
                    traf.fullBox("tfdt", version: decodeTimeVersion) { box in
                        if decodeTimeVersion == 1 { box.uint64(decodeTime) } else { box.uint32(UInt32(truncatingIfNeeded: decodeTime)) }
                    }
                case .run(let index): runs[index].write(to: &traf)
                case .verbatim(let bytes): traf.append(bytes)
                }
            }
        }
    }
}

/// A per-sample value a run may state or leave to the defaults.
private enum SampleField {
    case duration, size

    /// The run's flag that says each sample states it.
    var runFlag: UInt32 { self == .duration ? 0x100 : 0x200 }
}

/// A track fragment header (`tfhd`): the track and the defaults of its samples.
private struct FragmentDefaults {
    var version: UInt8
    var flags: UInt32
    var trackID: UInt32
    var baseDataOffset: UInt64?
    var descriptionIndex: UInt32?
    var duration: UInt32?
    var size: UInt32?
    var sampleFlags: UInt32?

    init?(_ bytes: [UInt8], box: Box) {
        var reader = ByteReader(bytes, range: box.payload)
        guard let word = reader.uint32(), let trackID = reader.uint32() else { return nil }
        version = UInt8(word >> 24)
        flags = word & 0xFF_FFFF
        self.trackID = trackID
        if flags & 0x01 != 0 { guard let value = reader.uint64() else { return nil }; baseDataOffset = value }
        if flags & 0x02 != 0 { guard let value = reader.uint32() else { return nil }; descriptionIndex = value }
        if flags & 0x08 != 0 { guard let value = reader.uint32() else { return nil }; duration = value }
        if flags & 0x10 != 0 { guard let value = reader.uint32() else { return nil }; size = value }
        if flags & 0x20 != 0 { guard let value = reader.uint32() else { return nil }; sampleFlags = value }
        guard reader.remaining == 0 else { return nil }
    }

    subscript(field: SampleField) -> UInt32? {
        get { field == .duration ? duration : size }
        set { if field == .duration { duration = newValue } else { size = newValue } }
    }

    func write(to writer: inout ByteWriter) {
        var flags = self.flags & ~UInt32(0x3B)
        if baseDataOffset != nil { flags |= 0x01 }
        if descriptionIndex != nil { flags |= 0x02 }
        if duration != nil { flags |= 0x08 }
        if size != nil { flags |= 0x10 }
        if sampleFlags != nil { flags |= 0x20 }
        writer.fullBox("tfhd", version: version, flags: flags) { box in
            box.uint32(trackID)
            if let baseDataOffset { box.uint64(baseDataOffset) }
            if let descriptionIndex { box.uint32(descriptionIndex) }
            if let duration { box.uint32(duration) }
            if let size { box.uint32(size) }
            if let sampleFlags { box.uint32(sampleFlags) }
        }
    }
}

/// A track run (`trun`): where its samples' data starts and what each states of itself.
private struct SampleRun {
    static let firstSampleFlagsPresent: UInt32 = 0x004
    /// The per-sample fields, in the order a run stores them.
    private static let fieldFlags: [UInt32] = [0x100, 0x200, 0x400, 0x800]

    var version: UInt8
    var flags: UInt32
    var dataOffset: UInt32?
    var firstSampleFlags: UInt32?
    /// Each sample's stated values, by field flag.
    var samples: [[UInt32: UInt32]]

    init?(_ bytes: [UInt8], box: Box) {
        var reader = ByteReader(bytes, range: box.payload)
        guard let word = reader.uint32(), let count = reader.uint32() else { return nil }
        version = UInt8(word >> 24)
        let flags = word & 0xFF_FFFF
        self.flags = flags
        if flags & 0x001 != 0 { guard let value = reader.uint32() else { return nil }; dataOffset = value }
        if flags & Self.firstSampleFlagsPresent != 0 { guard let value = reader.uint32() else { return nil }; firstSampleFlags = value }
        let stated = Self.fieldFlags.filter { flags & $0 != 0 }
        guard reader.remaining == Int(count) * 4 * stated.count else { return nil }
        var samples: [[UInt32: UInt32]] = []
        for _ in 0..<(stated.isEmpty ? Int(min(count, 1 << 20)) : Int(count)) {
            var sample: [UInt32: UInt32] = [:]
            for flag in stated {
                guard let value = reader.uint32() else { return nil }
                sample[flag] = value
            }
            samples.append(sample)
        }
        guard samples.count == Int(count) else { return nil }
        self.samples = samples
    }

    func states(_ field: SampleField) -> Bool { flags & field.runFlag != 0 }

    func write(to writer: inout ByteWriter) {
        writer.fullBox("trun", version: version, flags: flags) { box in
            box.uint32(UInt32(samples.count))
            if flags & 0x001 != 0 { box.uint32(dataOffset ?? 0) }
            if flags & Self.firstSampleFlagsPresent != 0 { box.uint32(firstSampleFlags ?? 0) }
            for sample in samples {
                for flag in Self.fieldFlags where flags & flag != 0 { box.uint32(sample[flag] ?? 0) }
            }
        }
    }
}

private extension Dictionary where Key == UInt32, Value == UInt32 {
    subscript(field: SampleField) -> UInt32? { self[field.runFlag] }
}

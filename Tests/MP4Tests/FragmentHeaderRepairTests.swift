@testable import MP4
import Testing

/// ``FragmentHeaderRepair`` makes mp4mux's `moof` state every sample's size and duration
/// (a run it leaves without them reads as 0 bytes), in the same number of bytes, and
/// changes nothing else a reader finds.
@Suite("MP4 fragment header repair")
struct FragmentHeaderRepairTests {
    /// A sound track fragment as mp4mux 1.22 writes it: `tfhd` with a base offset and
    /// default flags only, and runs stating their own durations and sizes, but for the last.
    static func soundFragment(runs: [(flags: UInt32, samples: [(duration: UInt32, size: UInt32)])],
                              headerFlags: UInt32 = 0x21, decodeTimeVersion: UInt8 = 0, decodeTime: Bool = true) -> [UInt8] {
        var writer = ByteWriter()
        writer.box("moof") { moof in
            moof.fullBox("mfhd", version: 0) { $0.uint32(7) }
            moof.box("traf") { traf in
                traf.fullBox("tfhd", version: 0, flags: headerFlags) { box in
                    box.uint32(2)
                    if headerFlags & 0x01 != 0 { box.uint64(26_192) }
                    if headerFlags & 0x08 != 0 { box.uint32(1024) }
                    if headerFlags & 0x20 != 0 { box.uint32(0xC0) }
                }
                if decodeTime {
                    traf.fullBox("tfdt", version: decodeTimeVersion) { box in
                        if decodeTimeVersion == 1 { box.uint64(23_552) } else { box.uint32(23_552) }
                    }
                }
                var offset: UInt32 = 16
                for run in runs {
                    traf.fullBox("trun", version: 0, flags: run.flags) { box in
                        box.uint32(UInt32(run.samples.count))
                        box.uint32(offset)
                        if run.flags & 0x004 != 0 { box.uint32(0xC0) }
                        for sample in run.samples {
                            if run.flags & 0x100 != 0 { box.uint32(sample.duration) }
                            if run.flags & 0x200 != 0 { box.uint32(sample.size) }
                        }
                    }
                    // Another track's data lies between the runs.
                    offset += run.samples.reduce(0) { $0 + $1.size } + 900
                }
            }
        }
        return writer.bytes
    }

    /// What a reader finds in `moof` (trex defaults all 0, as mp4mux writes them).
    static func samples(_ moof: [UInt8]) throws -> [FragmentSample] {
        let fragments = try #require(MovieFragmentParser.parse(moof: moof, at: 100_000, fileSize: 1 << 30, defaults: [:]))
        return fragments.flatMap(\.samples)
    }

    /// The fault as found: the last run, one packet as long as the fragment's first, states nothing.
    static let faulty = soundFragment(runs: [
        (0x305, [(1024, 294), (1024, 375)]), (0x301, [(1024, 312)]), (0x305, [(1024, 363), (1024, 336)]), (0x001, [(1024, 294)]),
    ])

    @Test("a last run that states nothing gets the fragment's first size and duration; nothing else changes")
    func lastRunGetsTheDefaults() throws {
        let before = try Self.samples(Self.faulty)
        #expect(before.last?.size == nil && before.last?.duration == nil, "the fixture has the fault: \(before)")
        let repaired = try #require(FragmentHeaderRepair.repaired(Self.faulty))
        #expect(repaired.count == Self.faulty.count)
        let after = try Self.samples(repaired)
        #expect(after.map(\.size) == [294, 375, 312, 363, 336, 294])
        #expect(after.map(\.duration) == Array(repeating: 1024, count: 6))
        #expect(after.map(\.offset) == before.map(\.offset))
        #expect(after.map(\.isSync) == before.map(\.isSync))
        // The bytes won back are a free box at the end of the moof.
        let children = try #require(Box.children(of: repaired, in: 8..<repaired.count))
        #expect(children.map(\.type) == ["mfhd", "traf", "free"])
    }

    @Test("a fragment that states everything is left alone")
    func completeFragmentNeedsNothing() {
        let complete = Self.soundFragment(runs: [(0x305, [(1024, 294), (1024, 375)]), (0x301, [(1024, 312)])])
        #expect(FragmentHeaderRepair.repaired(complete) == nil)
        let withDefaults = Self.soundFragment(runs: [(0x001, [(1024, 294)]), (0x001, [(1024, 294)])], headerFlags: 0x39)
        #expect(FragmentHeaderRepair.repaired(withDefaults) == nil)
    }

    @Test("four bytes over: a 64-bit decode time takes them, or a first sample's flags stay")
    func fourBytesOver() throws {
        // Growth 8 (size and duration); saved: the first run's two durations (8) and the
        // second run's first flags (4): 12, four over.
        let runs: [(flags: UInt32, samples: [(duration: UInt32, size: UInt32)])] = [
            (0x301, [(1024, 294), (1024, 300)]), (0x005, [(1024, 294)]),
        ]
        let withTime = Self.soundFragment(runs: runs)
        let repaired = try #require(FragmentHeaderRepair.repaired(withTime))
        #expect(repaired.count == withTime.count)
        #expect(try Self.samples(repaired).map(\.size) == [294, 300, 294])
        let tfdt = try #require(Self.box("tfdt", in: repaired))
        #expect(repaired[tfdt.payloadStart] == 1, "the decode time is written in 64 bits")
        #expect(try #require(MovieFragmentParser.parse(moof: repaired, at: 0, fileSize: 1 << 30, defaults: [:])).first?.decodeTime == 23_552)

        let withoutTime = Self.soundFragment(runs: runs, decodeTime: false)
        let kept = try #require(FragmentHeaderRepair.repaired(withoutTime))
        #expect(kept.count == withoutTime.count)
        #expect(try Self.samples(kept).map(\.duration) == [1024, 1024, 1024])
        let run = try #require(Self.box("trun", in: kept, last: true))
        #expect(kept[run.payloadStart + 3] & 0x04 != 0, "the last run states its first sample's flags again")
    }

    @Test("a fault that cannot be mended in the same bytes is left as it was (camrec recover reads it)")
    func noRoomLeavesItAlone() {
        // Durations are defaults already: stating the size needs 4 bytes nothing gives back.
        let tight = Self.soundFragment(runs: [(0x201, [(1024, 300), (1024, 294)]), (0x201, [(1024, 310)]), (0x001, [(1024, 300)])],
                                       headerFlags: 0x09)
        #expect(FragmentHeaderRepair.repaired(tight) == nil)
    }

    /// A `moof` camrec's recording left in a CI run (its sound fragment's last run states
    /// nothing: ffprobe read the whole partial movie as unreadable).
    static let found: [UInt8] = hex([
        "000003286d6f6f66000000106d6668640000000000000001000001407472616600000020746668640000002900000001",
        "000000000000665000000064000100c0000000107466647400000000000005dd000000187472756e0000020100000001",
        "000002ad00000384000000187472756e0000020100000001000007690000037f000000187472756e0000020100000001",
        "00000da300000341000000187472756e0000020100000001000013a100000331000000187472756e0000020100000001",
        "000017f800000355000000187472756e000002010000000100001dcf00000357000000187472756e0000020100000001",
        "000022410000033a000000187472756e0000020100000001000027d50000034d000000187472756e0000020100000001",
        "00002c6c00000395000000187472756e0000020100000001000032b500000391000000187472756e0000020100000001",
        "0000392800000337000001d0747261660000001c7466686400000021000000020000000000006650000000c000000010",
        "746664740000000000005c00000000287472756e000003050000000200000010000000c0000004000000012600000400",
        "000001770000001c7472756e0000030100000001000006310000040000000138000000287472756e0000030500000002",
        "00000ae8000000c0000004000000016b0000040000000150000000287472756e0000030500000002000010e4000000c0",
        "000004000000013600000400000001870000001c7472756e0000030100000001000016d2000004000000012600000028",
        "7472756e000003050000000200001b4d000000c0000004000000019800000400000000ea0000001c7472756e00000301",
        "0000000100002126000004000000011b000000287472756e00000305000000020000257b000000c0000004000000011f",
        "000004000000013b0000001c7472756e000003010000000100002b22000004000000014a000000287472756e00000305",
        "0000000200003001000000c00000040000000126000004000000018e000000287472756e000003050000000200003646",
        "000000c0000004000000012000000400000001c2000000147472756e000000010000000100003c5f",
    ])

    @Test("the moof found in a killed recording: its last sound packet reads as its 294 bytes")
    func foundInARecording() throws {
        let before = try Self.samples(Self.found)
        #expect(before.contains { $0.size == nil })
        let repaired = try #require(FragmentHeaderRepair.repaired(Self.found))
        #expect(repaired.count == Self.found.count)
        let after = try Self.samples(repaired)
        #expect(after.count == before.count)
        #expect(after.allSatisfy { $0.size != nil && $0.duration != nil })
        // The packet's data ends where the moof starts (41,941): it is 294 bytes long.
        let last = try #require(after.last)
        #expect(last.size == 294 && last.offset + 294 == 41_941, "\(last)")
        for (old, new) in zip(before, after) {
            #expect(old.offset == new.offset && old.isSync == new.isSync && old.compositionOffset == new.compositionOffset)
            if let size = old.size { #expect(new.size == size) }
            if let duration = old.duration { #expect(new.duration == duration) }
        }
    }

    @Test("garbage, cut and bit-flipped moofs never trap, and a repair always keeps the length")
    func garbage() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            var bytes = Self.found
            switch Int.random(in: 0..<3, using: &generator) {
            case 0: bytes = Array(bytes.prefix(Int.random(in: 0..<bytes.count, using: &generator)))
            case 1:
                for _ in 0..<4 { bytes[Int.random(in: 0..<bytes.count, using: &generator)] ^= UInt8.random(in: 1...255, using: &generator) }
            default: bytes = (0..<Int.random(in: 0..<64, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            }
            if let repaired = FragmentHeaderRepair.repaired(bytes) { #expect(repaired.count == bytes.count) }
        }
    }

    static func box(_ type: String, in moof: [UInt8], last: Bool = false) -> Box? {
        guard let children = Box.children(of: moof, in: 8..<moof.count), let traf = children.first(where: { $0.type == "traf" }),
              let parts = Box.children(of: moof, in: traf.payload)?.filter({ $0.type == type })
        else { return nil }
        return last ? parts.last : parts.first
    }

    static func hex(_ lines: [String]) -> [UInt8] {
        let text = Array(lines.joined().utf8)
        return stride(from: 0, to: text.count - 1, by: 2).compactMap { UInt8(String(decoding: text[$0...$0 + 1], as: UTF8.self), radix: 16) }
    }
}

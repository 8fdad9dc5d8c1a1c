@testable import CamrecKit
import Testing

/// The pre-roll of event clips: whole GOPs, reaching back at least its length, no more
/// than one GOP beyond it.
@Suite("Pre-roll: the last seconds of the encoded stream")
struct PreRollTests {
    /// `count` frames of 30 fps from frame `first`, a keyframe every `gop` frames, frame i
    /// of `100 + i` bytes with payload i.
    static func frames(_ count: Int, from first: Int = 0, gop: Int = 30) -> [PreRoll<Int>.Packet] {
        (first..<(first + count)).map { index in
            PreRoll<Int>.Packet(pts: time(index), duration: time(index + 1) - time(index), isKeyframe: index % gop == 0,
                                bytes: 100 + index, payload: index)
        }
    }

    /// Frame `index`'s time at 30 fps, exact to the nanosecond (30 frames are one second).
    static func time(_ index: Int) -> UInt64 {
        UInt64(index) * 1_000_000_000 / 30
    }

    @Test("it keeps whole GOPs reaching back its length, and lets the older ones go", arguments: [1, 2, 5])
    func keepsWholeGOPs(seconds: Int) {
        var roll = PreRoll<Int>(length: UInt64(seconds) * 1_000_000_000)
        for packet in Self.frames(600) { roll.append(packet) }
        // 600 frames, keyframes every 30: the newest ends at frame 600; the first kept GOP is
        // the latest one starting at or before 600 - 30 × seconds.
        let first = 600 - 30 * seconds
        #expect(roll.packets.first?.payload == first, "\(roll.packets.first.map(\.payload) ?? -1)")
        #expect(roll.packets.first?.isKeyframe == true)
        #expect(roll.packets.map(\.payload) == Array(first..<600))
        #expect(roll.bytes == (first..<600).reduce(0) { $0 + 100 + $1 })
        #expect(roll.covered >= UInt64(seconds) * 1_000_000_000)
    }

    @Test("between keyframes it may hold up to one GOP more than its length, never less")
    func boundIsLengthPlusAGOP() {
        var roll = PreRoll<Int>(length: 2_000_000_000)
        for packet in Self.frames(1000, gop: 45) {
            roll.append(packet)
            guard packet.pts >= 3_000_000_000 else { continue }
            #expect(roll.covered >= 2_000_000_000 - 1_000)
            #expect(roll.covered <= 2_000_000_000 + Self.time(45) + 1_000)
        }
    }

    @Test("a clip starts at the keyframe at or before its start, and says when the pre-roll was short")
    func clipStarts() {
        var roll = PreRoll<Int>(length: 3_000_000_000)
        for packet in Self.frames(300) { roll.append(packet) }
        // A trigger now (frame 300) with 3 s before it: frame 210 on, a keyframe.
        let clip = roll.clip(from: Self.time(215))
        #expect(clip.packets.first?.payload == 210 && clip.packets.last?.payload == 299)
        #expect(clip.from == Self.time(210) && !clip.isShort)
        // Exactly on a keyframe.
        #expect(roll.clip(from: Self.time(240)).packets.first?.payload == 240)
        // Earlier than it keeps (frames before 210 were let go): the first it has, short.
        let early = roll.clip(from: Self.time(100))
        #expect(early.from == roll.packets.first?.pts && early.isShort)
    }

    @Test("a clip whose nearest frame is a keyframe starts there, not a whole GOP earlier (--clip-start keyframe's pre-roll)")
    func nearestFrameOnAKeyframe() {
        var roll = PreRoll<Int>(length: 3_000_000_000)
        for packet in Self.frames(300) { roll.append(packet) }
        let frame = Self.time(1)
        // Keyframes every 30 frames: 240 is one. Asked for within half a frame of it, either side.
        for start in [Self.time(240), Self.time(240) - frame / 2, Self.time(240) + frame / 2 - 1] {
            let clip = roll.clip(nearest: start, frameDuration: frame)
            #expect(clip.packets.first?.payload == 240 && !clip.isShort, "\(start)")
        }
        // Half a frame or more after it, the nearest frame is 241: the clip starts at 240 still.
        #expect(roll.clip(nearest: Self.time(240) + frame / 2 + 1, frameDuration: frame).packets.first?.payload == 240)
        // Just over half a frame before it, the nearest frame is 239: the keyframe before, 210.
        #expect(roll.clip(nearest: Self.time(240) - frame / 2 - 2, frameDuration: frame).packets.first?.payload == 210)
        // The first frame kept (210), asked for exactly: not short; a frame before it: short.
        #expect(!roll.clip(nearest: Self.time(210), frameDuration: frame).isShort)
        #expect(roll.clip(nearest: Self.time(209), frameDuration: frame).isShort)
    }

    @Test("frames before the first keyframe are dropped; an empty pre-roll gives a short, empty clip")
    func startsAtAKeyframe() {
        var roll = PreRoll<Int>(length: 1_000_000_000)
        #expect(roll.clip(from: 0).packets.isEmpty && roll.clip(from: 0).isShort)
        // A stream joined mid-GOP: frames 10..29 cannot be decoded.
        for packet in Self.frames(50, from: 10) { roll.append(packet) }
        #expect(roll.packets.first?.payload == 30)
        let clip = roll.clip(from: 0)
        #expect(clip.isShort && clip.from == Self.time(30))
    }

    @Test("sound: every packet is a keyframe, so a clip cuts at the packet at or before the video's start")
    func sound() {
        var roll = PreRoll<Int>(length: 1_000_000_000)
        let packet: UInt64 = 21_333_333
        for index in 0..<200 {
            roll.append(.init(pts: UInt64(index) * packet, duration: packet, isKeyframe: true, bytes: 300, payload: index))
        }
        // It keeps just over a second: 47 packets of 21.3 ms reach back 1 s from the end of the 200th.
        #expect(roll.covered >= 1_000_000_000 && roll.covered < 1_000_000_000 + packet)
        let clip = roll.clip(from: 180 * packet + 5)
        #expect(clip.packets.first?.payload == 180)
    }

    @Test("removeAll lets everything go")
    func removeAll() {
        var roll = PreRoll<Int>(length: 1_000_000_000)
        for packet in Self.frames(100) { roll.append(packet) }
        roll.removeAll()
        #expect(roll.packets.isEmpty && roll.bytes == 0 && roll.covered == 0)
        for packet in Self.frames(40, from: 100) { roll.append(packet) }
        #expect(roll.packets.first?.payload == 120)
    }
}

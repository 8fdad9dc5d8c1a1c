/// The last stretch of an encoded stream, kept in memory for event clips (`--pre-roll`,
/// issue 16): whole GOPs, so that a clip can start at a keyframe, and no more of them than
/// it takes to reach back `length` from the newest packet. Its memory is bounded by the
/// length plus one GOP, times the bitrate; `bytes` says how much it holds.
///
/// Sound goes in a pre-roll of its own whose packets are all keyframes (AAC and Opus
/// packets decode on their own), cut where the video's clip starts.
///
/// Pure state: `Payload` is whatever holds a packet's data (a GStreamer buffer in a
/// recording, a number in the tests).
struct PreRoll<Payload> {
    /// One encoded packet.
    struct Packet {
        /// Presentation time (ns, the recording's running time).
        var pts: UInt64
        /// How long it lasts (ns).
        var duration: UInt64
        /// Whether it decodes on its own (a GOP starts with it).
        var isKeyframe: Bool
        /// Its size, for the memory bound.
        var bytes: Int
        var payload: Payload

        /// Where it ends (ns).
        var end: UInt64 { pts + duration }
    }

    /// What a clip starting at some time gets.
    struct Clip {
        /// The packets from the keyframe at or before the start, in order.
        var packets: [Packet]
        /// The first packet's time (a keyframe), ns: at or before the start asked for,
        /// unless the pre-roll is shorter (`isShort`).
        var from: UInt64
        /// Whether the pre-roll did not reach back to the start asked for (the run had
        /// just started, or the stream began later): the clip starts later than asked.
        var isShort: Bool
    }

    /// How far back (ns) it keeps, at least, from the newest packet's end.
    let length: UInt64
    /// The packets kept, oldest first; the first is always a keyframe.
    private(set) var packets: [Packet] = []
    /// Where each GOP kept starts, as an index into `packets` (the first is 0).
    private var gopStarts: [Int] = []
    /// Bytes held.
    private(set) var bytes = 0

    /// Keeps at least `length` ns.
    init(length: UInt64) {
        self.length = length
    }

    /// How much time it holds (ns): from its first keyframe to the newest packet's end.
    var covered: UInt64 {
        guard let first = packets.first, let newest = packets.last?.end, newest > first.pts else { return 0 }
        return newest - first.pts
    }

    /// Adds the newest packet; then lets go of the oldest GOP for as long as the next one
    /// still reaches back `length`. Packets before the first keyframe are dropped: nothing
    /// could decode them.
    mutating func append(_ packet: Packet) {
        if packet.isKeyframe {
            gopStarts.append(packets.count)
        } else if packets.isEmpty {
            return
        }
        packets.append(packet)
        bytes += packet.bytes
        let reach = packet.end > length ? packet.end - length : 0
        while gopStarts.count > 1, packets[gopStarts[1]].pts <= reach {
            dropFirstGOP()
        }
    }

    private mutating func dropFirstGOP() {
        let count = gopStarts[1]
        bytes -= packets[..<count].reduce(0) { $0 + $1.bytes }
        packets.removeFirst(count)
        gopStarts.removeFirst()
        for index in gopStarts.indices { gopStarts[index] -= count }
    }

    /// The packets for a clip that starts at `start` (ns): from the last keyframe at or
    /// before it (or the first kept, when none is that early).
    func clip(from start: UInt64) -> Clip {
        guard let first = gopStarts.first else { return Clip(packets: [], from: start, isShort: true) }
        let chosen = gopStarts.last { packets[$0].pts <= start } ?? first
        return Clip(packets: Array(packets[chosen...]), from: packets[chosen].pts, isShort: packets[chosen].pts > start)
    }

    /// The packets for a clip whose first frame is the one nearest to `start` (ns), frames
    /// `frameDuration` apart (the first frame at or after half a frame before `start`): from
    /// the last keyframe at or before that frame. A keyframe that is that frame is the
    /// clip's start, not the keyframe before it; short when the frame is no longer kept.
    func clip(nearest start: UInt64, frameDuration: UInt64) -> Clip {
        // The frame before it lies before start − half a frame, so it lies before
        // start − half + one frame, and no later frame does.
        let frame = max(frameDuration, 1)
        return clip(from: start + (frame - frame / 2) - 1)
    }

    /// Lets go of everything (the stream was cut: a new pipeline after a reconnect).
    mutating func removeAll() {
        packets.removeAll()
        gopStarts.removeAll()
        bytes = 0
    }
}

extension PreRoll: Sendable where Payload: Sendable {}
extension PreRoll.Packet: Sendable where Payload: Sendable {}

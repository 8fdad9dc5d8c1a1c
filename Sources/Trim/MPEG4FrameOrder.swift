import GStreamer

/// Presentation times for MPEG-4 Part 2 video read from AVI. AVI stores one time per frame,
/// in decode order, and `avidemux` gives a presentation time only to keyframes; with
/// B-frames the frames are shown in another order. The order follows from each frame's VOP
/// coding type (I, P, S or B): a B-VOP is shown at once, an I-, P- or S-VOP when the next
/// one of them arrives (or at the end). Without B-frames the presentation times are the
/// decoding times.
enum MPEG4FrameOrder {
    /// The VOP start code's last byte.
    static let vopStartCode: UInt8 = 0xB6

    /// The coding types (0 I, 1 P, 2 B, 3 S) of the VOPs in a frame's bytes, in order.
    static func vopTypes(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
        var types: [UInt8] = []
        var index = 0
        while index + 4 < bytes.count {
            if bytes[index] == 0, bytes[index + 1] == 0, bytes[index + 2] == 1, bytes[index + 3] == vopStartCode {
                types.append(bytes[index + 4] >> 6)
                index += 5
            } else {
                index += 1
            }
        }
        return types
    }

    /// `timings` (decode order) with presentation times derived from `types` (each frame's
    /// VOP coding types): the k-th frame shown is given the k-th time AVI stores, as ffmpeg
    /// and players show it. The decoding times are dropped: ``GStreamerInput/frames(_:idr:)``
    /// derives them from the presentation times, as for Matroska (the AVI's own are the
    /// sorted presentation times, which is how ``DemuxedSamples`` finds a frame again).
    /// Nil when a frame holds more than one VOP (a "packed bitstream", as DivX writes it) or
    /// none, or a decoding time is missing: the order cannot be told then.
    static func presentationTimes(_ timings: [BufferTiming], types: [[UInt8]]) -> [BufferTiming]? {
        guard timings.count == types.count, types.allSatisfy({ $0.count == 1 }),
              timings.allSatisfy({ $0.dts != nil })
        else { return nil }
        let kinds = types.map { $0[0] }
        guard kinds.contains(2) else {
            return timings.map { timing in
                var timing = timing
                timing.pts = timing.dts
                return timing
            }
        }
        var shown: [Int] = []
        var held: Int?
        for (index, kind) in kinds.enumerated() {
            if kind == 2 {
                shown.append(index)
            } else {
                if let held { shown.append(held) }
                held = index
            }
        }
        if let held { shown.append(held) }
        let decodeTimes = timings.compactMap(\.dts)
        var result = timings
        for (slot, index) in shown.enumerated() {
            result[index].pts = decodeTimes[slot]
            result[index].dts = nil
        }
        return result
    }
}

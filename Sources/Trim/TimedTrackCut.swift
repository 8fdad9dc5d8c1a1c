import MP4

/// Cuts an MP4/MOV track that is neither the video nor sound (subtitles, chapters, timed
/// metadata, a QuickTime timecode) to the output's window, as samples camrec's MP4 writer
/// writes. Pure value logic over a track's sample table.
///
/// The window is given in the track's media ticks: `[start, end)` is what the output shows
/// from its 0 to its end. A cue (sample) that overlaps the window is kept, shortened to it:
/// a subtitle shown from before the cut to after it is shown from the output's 0 on. A
/// timecode track's one sample is rewritten to the timecode of the output's first frame.
enum TimedTrackCut {
    /// A sample as the cut sees it (in the track's media ticks).
    struct Item: Equatable {
        var presentationTime: Int64
        var duration: UInt32
        var offset: UInt64
        var size: UInt32
        var isSync = true

        init(presentationTime: Int64, duration: UInt32, offset: UInt64, size: UInt32, isSync: Bool = true) {
            self.presentationTime = presentationTime
            self.duration = duration
            self.offset = offset
            self.size = size
            self.isSync = isSync
        }

        init(_ sample: MP4.Sample) {
            self.init(
                presentationTime: sample.presentationTime, duration: sample.duration, offset: sample.offset,
                size: sample.size, isSync: sample.isSync
            )
        }
    }

    /// The kept part of a track: its samples (decode order) and how long after the output's
    /// 0 the first one starts (a gap), in the track's ticks.
    struct Cut: Equatable {
        var samples: [OutputSample]
        var leadingGap: Int64

        /// The edit list that puts the samples on the movie timeline (`movieScale`
        /// ticks per second for durations; the track's `timescale` for media times).
        func edits(timescale: UInt32, movieScale: UInt32) -> [Edit] {
            let length = samples.reduce(Int64(0)) { $0 + Int64($1.duration) }
            var edits: [Edit] = []
            if leadingGap > 0 {
                edits.append(Edit(segmentDuration: UInt64(TimedTrackCut.rescale(leadingGap, timescale, movieScale)), mediaTime: -1))
            }
            edits.append(Edit(segmentDuration: UInt64(TimedTrackCut.rescale(length, timescale, movieScale)), mediaTime: 0))
            return edits
        }
    }

    /// The samples that overlap `[start, end)` (media ticks), each shortened to the window;
    /// nil when none does.
    static func cut(_ items: [Item], from start: Int64, to end: Int64) -> Cut? {
        var samples: [OutputSample] = []
        var firstShown: Int64?
        for sample in items {
            let shown = sample.presentationTime
            let over = shown + Int64(sample.duration)
            guard shown < end, over > start || (sample.duration == 0 && shown >= start) else { continue }
            let from = max(shown, start)
            let until = min(over, end)
            if firstShown == nil { firstShown = from }
            samples.append(OutputSample(
                source: .file(offset: sample.offset, size: sample.size), duration: UInt32(clamping: max(0, until - from)),
                compositionOffset: 0, isSync: sample.isSync
            ))
        }
        guard let firstShown, !samples.isEmpty else { return nil }
        return Cut(samples: samples, leadingGap: firstShown - start)
    }

    /// A cue-less text track's one empty sample (a zero-length string) over `[start, end)`,
    /// for QuickTime text and 3GPP timed text (`text`, `tx3g`): such a track stays in the
    /// output, with nothing to show.
    static func emptyText(format: String, from start: Int64, to end: Int64) -> Cut? {
        guard ["text", "tx3g"].contains(format), end > start else { return nil }
        return Cut(
            samples: [OutputSample(source: .bytes([0, 0]), duration: UInt32(clamping: end - start), compositionOffset: 0, isSync: true)],
            leadingGap: 0
        )
    }

    // MARK: Timecode

    /// A QuickTime timecode sample description (`tmcd`): frames per second as timescale
    /// over frame duration.
    struct TimecodeFormat: Equatable {
        var timescale: UInt32
        var frameDuration: UInt32

        /// Reads a `tmcd` sample entry; nil when it is not one.
        init?(sampleEntry entry: [UInt8]) {
            // size, type, 6 reserved, data reference index, 4 reserved, flags, timescale,
            // frame duration, number of frames.
            guard entry.count >= 33, String(decoding: entry[4..<8], as: UTF8.self) == "tmcd" else { return nil }
            func word(_ at: Int) -> UInt32 { entry[at..<at + 4].reduce(0) { $0 << 8 | UInt32($1) } }
            timescale = word(24)
            frameDuration = word(28)
            guard timescale > 0, frameDuration > 0 else { return nil }
        }
    }

    /// The timecode track (sample entry `sampleEntry`, `timescale` media ticks a second) cut
    /// to `[start, end)` (media ticks): one sample holding the frame number of the output's
    /// first frame (the input's number at `start`), lasting the whole output. `frameNumber`
    /// reads a sample's 32-bit frame number. Nil when the track is not a timecode track of
    /// one number per sample.
    static func timecode(
        _ items: [Item], sampleEntry: [UInt8], timescale: UInt32, from start: Int64, to end: Int64,
        frameNumber: (Item) throws -> UInt32?
    ) rethrows -> Cut? {
        guard let format = TimecodeFormat(sampleEntry: sampleEntry), end > start, timescale > 0,
              let sample = items.last(where: { $0.presentationTime <= start }) ?? items.first,
              sample.size == 4, let number = try frameNumber(sample)
        else { return nil }
        // Frames from the sample's start to the window's: ticks → seconds → frames.
        let elapsed = Double(start - sample.presentationTime) / Double(timescale)
            * Double(format.timescale) / Double(format.frameDuration)
        let frames = Int64(elapsed.rounded())
        let value = UInt32(truncatingIfNeeded: Int64(number) + frames)
        let bytes = (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * UInt32($0))) }
        return Cut(
            samples: [OutputSample(source: .bytes(bytes), duration: UInt32(clamping: end - start), compositionOffset: 0, isSync: true)],
            leadingGap: 0
        )
    }

    /// `value` ticks at `from` ticks per second, in ticks at `to` per second (rounded).
    static func rescale(_ value: Int64, _ from: UInt32, _ to: UInt32) -> Int64 {
        guard from > 0 else { return 0 }
        let scaled = (Double(value) * Double(to) / Double(from)).rounded()
        return scaled.isFinite ? Int64(max(-9e18, min(9e18, scaled))) : 0
    }
}

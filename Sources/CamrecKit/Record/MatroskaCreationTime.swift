import GStreamer

/// A Matroska movie's date (`DateUTC`, in the header matroskamux writes before its first
/// frame, so a killed movie has it too): matroskamux takes it from its `creation-time`,
/// which camrec sets to the capture time of each file's first frame before the muxer sees
/// any of the file's data. One movie: as its first frame passes the recording's gate (the
/// sound waits there for it). Segments: as splitmuxsink opens each segment's file (on the
/// muxer it made for it: ``MovieMuxers``), from the gate's note of that file's first frame.
enum MatroskaCreationTime {
    /// Sets the date the muxer writes into the next file's header.
    static func set(_ time: WallTime, on muxer: Element) {
        try? muxer.set("creation-time", .dateTime(unixMicroseconds: time.seconds * 1_000_000 + time.nanoseconds / 1000))
    }
}

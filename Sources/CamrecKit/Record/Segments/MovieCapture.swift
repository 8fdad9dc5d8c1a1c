import MP4

/// Writes when a movie's first frame was captured into the finished file, before it is
/// published: an MP4 or QuickTime movie gets ``CaptureTimeStamp`` (its headers' second and
/// a `com.apple.quicktime.creationdate` to the millisecond). Matroska has it from the
/// start (matroskamux's `creation-time`, set as its first frame comes: `MatroskaCreationTime`).
enum MovieCapture {
    /// Stamps the finished movie at `path`. A movie that cannot be stamped (a full disk)
    /// stays as it was: the time is in its JSON line all the same.
    /// The stamp of `time`, in local time (as the JSON line without --utc says it).
    static func stamp(of time: WallTime) -> CaptureTimeStamp {
        CaptureTimeStamp(unixMilliseconds: time.seconds * 1000 + time.nanoseconds / 1_000_000,
                         utcOffsetSeconds: time.localUTCOffsetSeconds)
    }

    static func stamp(_ path: String, container: MediaContainer, time: WallTime) {
        guard container == .mp4 || container == .mov else { return }
        try? stamp(of: time).write(into: path)
    }
}

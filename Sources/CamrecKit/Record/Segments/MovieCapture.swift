import MP4

/// Writes when a movie's first frame was captured into the finished file, before it is
/// published: an MP4 or QuickTime movie gets ``CaptureTimeStamp`` (its headers' second and
/// a `com.apple.quicktime.creationdate` to the millisecond). Matroska has it from the
/// start (matroskamux's `creation-time`, set as its first frame comes: `MatroskaCreationTime`).
enum MovieCapture {
    /// Stamps the finished movie at `path`. A movie that cannot be stamped (a full disk)
    /// stays as it was: the time is in its JSON line all the same.
    /// The stamp of `time`, in local time (as the JSON line without --utc says it), with
    /// the camera's name and place (`tags`, as the stills have them) and camrec's version.
    static func stamp(of time: WallTime, tags: StillTags? = nil) -> CaptureTimeStamp {
        CaptureTimeStamp(unixMilliseconds: time.unixMilliseconds,
                         utcOffsetSeconds: time.localUTCOffsetSeconds, model: tags?.camera,
                         software: tags == nil ? nil : "camrec " + CamrecVersion.number,
                         location: tags?.location.map(iso6709))
    }

    /// `location` as ISO 6709 text, as QuickTime's location key holds it: +48.8584+002.2945+035.000/.
    static func iso6709(_ location: GeoLocation) -> String {
        func signed(_ value: Double, _ integerDigits: Int, _ fraction: Int) -> String {
            let text = String(cFormat: "%0\(integerDigits + fraction + 1).\(fraction)f", abs(value))
            return (value < 0 ? "-" : "+") + text
        }
        return signed(location.latitude, 2, 4) + signed(location.longitude, 3, 4)
            + (location.altitude.map { signed($0, 3, 3) } ?? "") + "/"
    }

    static func stamp(_ path: String, container: MediaContainer, time: WallTime, tags: StillTags? = nil) {
        guard container == .mp4 || container == .mov else { return }
        try? stamp(of: time, tags: tags).write(into: path)
    }
}

import GStreamer

/// Gives encoded stills their EXIF block, before they are written (`StillTaker`,
/// `StillCamera`): the frame's capture time to the millisecond, the camera and the place.
enum StillStamp {
    /// `bytes` (a still encoded as `format`) with EXIF for a frame captured at `captured`;
    /// the bytes as they were and a warning when they cannot take it (not the JPEG or PNG
    /// they should be). The still itself is never lost for its EXIF.
    static func apply(_ bytes: [UInt8], format: StillFormat, captured: WallTime, tags: StillTags)
        -> (bytes: [UInt8], warning: String?) {
        do throws(ExifEmbedding.Failure) {
            switch format {
            case .jpeg:
                let size = try ExifEmbedding.jpegSize(bytes)
                return (try ExifEmbedding.jpeg(bytes, tiff: exif(captured, tags, size, .jpeg).tiff()), nil)
            case .png:
                let size = try ExifEmbedding.pngSize(bytes)
                return (try ExifEmbedding.png(bytes, tiff: exif(captured, tags, size, .png).tiff()), nil)
            }
        } catch {
            return (bytes, "the still has no EXIF tags: \(error.message)")
        }
    }

    private static func exif(_ captured: WallTime, _ tags: StillTags, _ size: (width: Int, height: Int),
                             _ kind: StillExif.ImageKind) -> StillExif {
        StillExif(make: tags.maker ?? tags.camera, model: tags.camera, software: "camrec \(CamrecVersion.number)",
                  captured: MovieCapture.stamp(of: captured), width: size.width, height: size.height, location: tags.location, kind: kind)
    }

    /// When the camera took `sample`'s frame, on the wall clock: from its running time in
    /// the pipeline that `element` belongs to, as the overlay clock reads it
    /// (`CaptureTime`); with `capturedAs`, the running time of the frame it names instead
    /// (a canvas frame's camera frame). Now when the sample has no timestamp or the
    /// pipeline no clock.
    static func captureTime(of sample: Sample, in element: Element,
                            capturedAs: ((UInt64) -> UInt64?)? = nil) -> WallTime {
        guard let pts = sample.timing?.pts, let clockNow = element.clockTime else { return .now() }
        let running = capturedAs?(pts) ?? sample.segment?.runningTime(of: pts) ?? pts
        return CaptureTime.of(runningTime: running, baseTime: element.baseTime, clockNow: clockNow, wallNow: .now())
    }
}

import GStreamer

/// Encodes frames taken from the stills branch, off the streaming threads: a small
/// pipeline of its own (`appsrc ! videoconvert ! jpegenc|pngenc ! appsink`), built once
/// per recording. A frame that already is a JPEG (an MJPEG camera's) is kept as it is.
final class StillEncoder: @unchecked Sendable {
    private let format: StillFormat
    private let pipeline: Pipeline
    private let input: AppSrc
    private let output: AppSink

    init(format: StillFormat) throws(CamrecError) {
        self.format = format
        do {
            pipeline = try Pipeline.parse(Self.description(format))
            input = try AppSrc(pipeline.element(named: "in"))
            output = try AppSink(pipeline.element(named: "out"))
            try pipeline.setStateThrowingPostedError(.playing)
        } catch {
            throw FailureMapping.camrecError(for: error, camera: nil)
        }
    }

    /// The encoding pipeline for `format`, in gst-launch-1.0 syntax.
    ///
    /// A JPEG is full range (JFIF: Y 0–255, BT.601 matrix), but camera and test-pattern
    /// frames are limited range (Y 16–235): written as they are, black shows as grey 16 and
    /// white as 235. GStreamer 1.22's videoconvert does not expand the range when only the
    /// range differs (BT.601 limited to BT.601 full keeps Y 16–235), so the frame goes
    /// through RGB, which every conversion gets right; a still is one frame, so the second
    /// conversion costs little. Dithering is off: it would only add noise to flat areas.
    /// `1:4:0:0` is full range with the BT.601 matrix, what jpegdec outputs. PNG is RGB already.
    static func description(_ format: StillFormat) -> String {
        switch format {
        case .jpeg(let quality):
            "appsrc name=in format=time ! videoconvert dither=none ! video/x-raw,format=RGB"
                + " ! videoconvert dither=none ! video/x-raw,format=I420,colorimetry=1:4:0:0"
                + " ! jpegenc quality=\(quality) ! appsink name=out sync=false"
        case .png:
            "appsrc name=in format=time ! videoconvert ! pngenc ! appsink name=out sync=false"
        }
    }

    deinit {
        _ = try? pipeline.setState(.null)
    }

    /// The encoded file's bytes for one frame.
    func encode(_ sample: Sample) throws(CamrecError) -> [UInt8] {
        if case .jpeg = format, sample.caps?.mediaType == "image/jpeg" {
            return sample.bytes
        }
        guard input.push(sample) == .ok,
              let encoded = output.pullSample(timeoutNanoseconds: 5_000_000_000)
        else {
            throw CamrecError(.failure, "the still encoder failed on a \(sample.caps?.description ?? "frame")")
        }
        return encoded.bytes
    }
}

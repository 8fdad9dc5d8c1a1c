import CamrecCore
import GStreamer
import Synchronization

/// Encodes frames taken from the stills branch, off the streaming threads: a small
/// pipeline of its own (`appsrc ! videoconvert ! jpegenc|pngenc ! appsink`), built once
/// per recording. A frame that already is a JPEG (an MJPEG camera's) is kept as it is for
/// a JPEG still, and decoded first for a PNG one (a second small pipeline, built at the
/// first such frame).
package final class StillEncoder: Sendable {
    private let format: StillFormat
    private let encoder: Stage
    /// `appsrc ! jpegdec ! … pngenc`, for PNG stills of JPEG frames; built when first needed.
    private let fromJPEG = Mutex<Stage?>(nil)

    /// One encoding pipeline and its two ends.
    private struct Stage {
        let pipeline: Pipeline
        let input: AppSrc
        let output: AppSink

        init(_ description: String) throws(CamrecError) {
            do {
                pipeline = try Pipeline.withBuiltIns(description)
                input = try AppSrc(pipeline.element(named: "in"))
                output = try AppSink(pipeline.element(named: "out"))
                try pipeline.setStateThrowingPostedError(.playing)
            } catch {
                throw FailureMapping.camrecError(for: error, camera: nil)
            }
        }

        func encode(_ sample: Sample) throws(CamrecError) -> [UInt8] {
            guard input.push(sample) == .ok,
                  let encoded = output.pullSample(timeoutNanoseconds: 5_000_000_000)
            else {
                throw CamrecError(.failure, "the still encoder failed on a \(sample.caps?.description ?? "frame")")
            }
            return encoded.bytes
        }

        func stop() {
            _ = try? pipeline.setState(.null)
        }
    }

    /// An encoder of frames to `format`, its pipeline playing.
    package init(format: StillFormat) throws(CamrecError) {
        self.format = format
        encoder = try Stage(Self.description(format))
    }

    /// The encoding pipeline for `format`, in gst-launch-1.0 syntax; `decodeJPEG` puts
    /// `jpegdec` first (PNG stills of an MJPEG camera's frames).
    ///
    /// A JPEG is full range (JFIF: Y 0–255, BT.601 matrix), but camera and test-pattern
    /// frames are limited range (Y 16–235): written as they are, black shows as grey 16 and
    /// white as 235. GStreamer 1.22's videoconvert does not expand the range when only the
    /// range differs (BT.601 limited to BT.601 full keeps Y 16–235), so the frame goes
    /// through RGB, which every conversion gets right; a still is one frame, so the second
    /// conversion costs little. Dithering is off: it would only add noise to flat areas.
    /// `1:4:0:0` is full range with the BT.601 matrix, what jpegdec outputs. PNG is RGB already.
    static func description(_ format: StillFormat, decodeJPEG: Bool = false) -> String {
        let input = "appsrc name=in format=time" + (decodeJPEG ? " ! jpegdec" : "")
        switch format {
        case .jpeg(let quality):
            return input + " ! videoconvert dither=none ! video/x-raw,format=RGB"
                + " ! videoconvert dither=none ! video/x-raw,format=I420,colorimetry=1:4:0:0"
                + " ! jpegenc quality=\(quality) ! appsink name=out sync=false"
        case .png:
            return input + " ! videoconvert ! pngenc ! appsink name=out sync=false"
        }
    }

    deinit {
        encoder.stop()
        fromJPEG.withLock { $0?.stop() }
    }

    /// The encoded file's bytes for one frame.
    package func encode(_ sample: Sample) throws(CamrecError) -> [UInt8] {
        guard sample.caps?.mediaType == "image/jpeg" else { return try encoder.encode(sample) }
        if case .jpeg = format { return sample.bytes }
        let format = format
        let decoding = try fromJPEG.withLock { (stage: inout Stage?) throws(CamrecError) -> Stage in
            if let stage { return stage }
            let made = try Stage(Self.description(format, decodeJPEG: true))
            stage = made
            return made
        }
        return try decoding.encode(sample)
    }
}

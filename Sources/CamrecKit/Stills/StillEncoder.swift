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
        let encoder = switch format {
        case .jpeg(let quality): "jpegenc quality=\(quality)"
        case .png: "pngenc"
        }
        do {
            pipeline = try Pipeline.parse(
                "appsrc name=in format=time ! videoconvert ! \(encoder) ! appsink name=out sync=false")
            input = try AppSrc(pipeline.element(named: "in"))
            output = try AppSink(pipeline.element(named: "out"))
            try pipeline.setState(.playing)
        } catch {
            throw FailureMapping.camrecError(for: error)
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

import CamrecCore
import GStreamer

/// Decodes the frames a `GOPKeeper` kept, from their keyframe to the newest, and gives
/// the newest as a raw frame for `StillEncoder`. A pipeline of its own for each still
/// (`appsrc ! h264parse ! avdec_h264 ! appsink`), so that nothing of one still's decoding
/// is left for the next; its appsink keeps only the newest decoded frame, and does not
/// hold back end of stream until it is pulled (`wait-on-eos=false`).
/// A still then costs one GOP's decoding at most (benchmark section 3).
package enum StillDecoder {
    static let description =
        "appsrc name=in format=time ! h264parse ! avdec_h264 ! appsink name=out sync=false drop=true max-buffers=1 wait-on-eos=false"

    /// Loads the decoder's plugins (libav is large) before the first still is asked for, so
    /// that the first still costs what the others do (313 ms against 50 ms without).
    package static func warmUp() {
        if let pipeline = try? Pipeline.withBuiltIns(description) { _ = try? pipeline.setState(.null) }
    }

    /// The newest frame of `frames` (which start at a keyframe), decoded.
    package static func decodeNewest(_ frames: [GOPKeeper.Frame], caps: String) throws(CamrecError) -> Sample {
        do {
            let pipeline = try Pipeline.withBuiltIns(description)
            defer { _ = try? pipeline.setState(.null) }
            let input = try AppSrc(pipeline.element(named: "in"))
            let output = try AppSink(pipeline.element(named: "out"))
            input.setCaps(try Caps(caps))
            try pipeline.setStateThrowingPostedError(.playing)
            for frame in frames {
                guard var buffer = WritableBuffer(bytes: frame.bytes) else {
                    throw CamrecError(.failure, "no memory for a frame of \(frame.bytes.count) bytes")
                }
                buffer.pts = frame.pts
                buffer.dts = frame.dts
                buffer.duration = frame.duration
                buffer.isKeyframe = frame.keyframe
                let flow = input.push(buffer.finished())
                guard flow == .ok else { throw CamrecError(.failure, "the still's decoder refused a frame (\(flow))") }
            }
            _ = input.endOfStream()
            guard let bus = pipeline.bus else { throw CamrecError(.failure, "the still's decoder has no bus") }
            while let message = bus.pop(timeoutNanoseconds: 5_000_000_000) {
                switch message {
                case .endOfStream:
                    guard let sample = output.pullSample(timeoutNanoseconds: 0) else {
                        throw CamrecError(.failure, "the camera's frames decoded to nothing")
                    }
                    return sample
                case .error(let failure):
                    throw CamrecError(.failure, "the still's decoder failed: \(failure.description)")
                default:
                    continue
                }
            }
            throw CamrecError(.failure, "the still's decoder took more than 5 s")
        } catch let error as CamrecError {
            throw error
        } catch let error as GStreamerError {
            throw FailureMapping.camrecError(for: error, camera: nil)
        } catch {
            throw CamrecError(.failure, "\(error)")
        }
    }
}

import CamrecCore
import GStreamer

/// The pipelines camrec plays a movie in (its feeder, `camrec react --separate`'s player):
/// built from gst-launch-1.0 text and brought to PAUSED, the first frame decoded, so that a
/// movie that cannot be played fails before anything starts. Every failure is an error
/// naming the movie.
enum MoviePipeline {
    /// `description` built and prerolled, with its bus; `name` ("--device file:…") words the errors.
    static func prerolled(_ description: String, name: String) throws(CamrecError) -> (Pipeline, Bus) {
        let pipeline: Pipeline
        do {
            pipeline = try Pipeline.parse(description)
        } catch {
            throw CamrecError(.unavailable, "\(name): cannot build its decoding pipeline: \(error.namingPackage)")
        }
        guard let bus = pipeline.bus else { throw CamrecError(.failure, "\(name): its decoding pipeline has no bus") }
        do {
            _ = try pipeline.setStateThrowingPostedError(.paused)
        } catch {
            _ = try? pipeline.setState(.null)
            throw CamrecError(.invalidInput, "\(name) cannot be played: \(error)")
        }
        if case .stillChanging = pipeline.waitForStateChange(timeoutNanoseconds: 10_000_000_000) {
            _ = try? pipeline.setState(.null)
            throw CamrecError(.invalidInput, "\(name): no frame decoded within 10 s: check it with ffprobe")
        }
        if let failure = firstError(on: bus) {
            _ = try? pipeline.setState(.null)
            throw CamrecError(.invalidInput, "\(name) cannot be played: \(failure.message)")
        }
        return (pipeline, bus)
    }

    /// The appsink named `name` in a prerolled `pipeline`; the pipeline is stopped when it has none.
    static func appSink(_ name: String, in pipeline: Pipeline, movie: String) throws(CamrecError) -> AppSink {
        do {
            return try AppSink(pipeline.element(named: name))
        } catch {
            _ = try? pipeline.setState(.null)
            throw CamrecError(.failure, "\(movie): its decoding pipeline has no appsink '\(name)' (\(error))")
        }
    }

    /// The first error waiting on `bus`, other messages dropped (the pipeline is not playing yet).
    private static func firstError(on bus: Bus) -> ElementFailure? {
        while let message = bus.pop(timeoutNanoseconds: 0) {
            if case .error(let failure) = message { return failure }
        }
        return nil
    }
}

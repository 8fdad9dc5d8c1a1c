import CamrecCore
import GStreamer
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// A Matroska movie's streams copied into an MP4, unchanged (no decoding): what lets
/// `camrec export` read a Matroska series as it reads an MP4 one. The copies are
/// temporary files beside the output, removed when the export ends.
package enum MatroskaRemux {
    /// Copies `movie`'s video (H.264) and sound (Opus or AAC, as `sound` names it; none
    /// when nil) into an MP4 at `output`. Throws a one-line error naming the movie.
    package static func toMP4(_ movie: String, sound: String?, output: String) throws(CamrecError) {
        do {
            try Runtime.initialize()
        } catch {
            throw CamrecError(.unavailable, "GStreamer cannot start (\(error)): camrec doctor says what is missing")
        }
        let source = "\"" + Pipeline.escapeForParser(movie) + "\""
        let target = "\"" + Pipeline.escapeForParser(output) + "\""
        var description = "filesrc location=\(source) ! matroskademux name=demux"
            + " mp4mux name=mux ! filesink location=\(target)"
            + " demux.video_0 ! queue ! h264parse ! mux.video_0"
        switch sound {
        case "opus": description += " demux.audio_0 ! queue ! opusparse ! mux.audio_0"
        case "aac": description += " demux.audio_0 ! queue ! aacparse ! mux.audio_0"
        case nil, "none": break
        case let other?:
            throw CamrecError(.invalidInput, "\(movie): camrec export copies Opus or AAC sound from Matroska, not \(other)")
        }
        let pipeline: Pipeline
        do {
            pipeline = try Pipeline.parse(description)
            _ = try pipeline.setStateThrowingPostedError(.playing)
        } catch {
            throw CamrecError(.invalidInput, "cannot read \(movie) as H.264 in Matroska: \(error)")
        }
        defer { _ = try? pipeline.setState(.null) }
        guard let bus = pipeline.bus else { throw CamrecError(.failure, "cannot watch the copy of \(movie)") }
        // Bounded by progress: the output grows while the copy runs.
        var size: Int64 = -1
        var still = ContinuousClock.now
        while true {
            if let message = bus.pop(timeoutNanoseconds: 100_000_000) {
                switch message {
                case .endOfStream: return
                case .error(let failure):
                    throw CamrecError(.invalidInput, "cannot copy \(movie) to MP4: \(failure)")
                default: break
                }
            }
            let now = OutputFile.size(of: output)
            if now != size {
                size = now
                still = .now
            } else if ContinuousClock.now - still > .seconds(30) {
                throw CamrecError(.stalled, "copying \(movie) to MP4 stalled for 30 s")
            }
        }
    }
}

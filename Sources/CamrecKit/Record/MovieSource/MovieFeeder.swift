import CamrecCore
import GStreamer
import Synchronization

/// Plays a movie (``MovieSource``) into a recording as a camera would deliver it: a
/// pipeline of its own decodes the movie, scales it (and makes its rate steady when asked),
/// and hands each frame over at the moment it is due (``FeedStream``), into the
/// recording's live appsrc, so that every part of the recording (the exact limit,
/// segments, clips, stills' capture times) treats it as a camera's frame. With `--audio
/// file` its sound goes to the recording's sound source ("audiosrc") the same way.
///
/// At the movie's end it starts again (`--loop`), or tells the recording (`ended`) and
/// ends the appsrcs' streams. A movie that fails mid-way ends the same way, with its message.
final class MovieFeeder: Sendable {
    let movie: MovieSource
    private let pipeline: Pipeline
    private let bus: Bus
    private let streams: [FeedStream]
    private struct State {
        var stopped = false
        /// Times the movie started again (`--loop`).
        var loops = 0
    }
    private let state = Mutex(State())
    /// Posted on the feeder's own bus to end its reading thread.
    private static let stopMessage = "camrec-movie-stop"
    /// The sound the feeder hands over with `--audio file`.
    static let soundCaps = "audio/x-raw,format=S16LE,layout=interleaved,rate=48000,channels=2"

    /// A feeder of `movie` into `target`, the appsrc of the `recording` pipeline, whose
    /// clock stamps the frames; its sound into `sound` when given. The movie is opened and
    /// its first frame decoded here (PAUSED): a movie that cannot be played fails before
    /// the recording starts.
    init(movie: MovieSource, into target: AppSrc, sound: AppSrc? = nil, recording: Element) throws(CamrecError) {
        self.movie = movie
        let frameDuration = UInt64((1e9 / max(movie.format.rate.framesPerSecond, 1e-3)).rounded())
        var description = "filesrc location=\"\(Pipeline.escapeForParser(movie.path))\" ! decodebin name=decode"
            + " decode. ! videoconvert name=convert ! queue max-size-buffers=3 max-size-bytes=0 max-size-time=0"
            + " ! videoscale" + (movie.changesRate ? " ! videorate" : "") + " ! capsfilter caps=\"\(Self.caps(movie))\""
            + " ! appsink name=frames sync=true max-buffers=2 drop=false enable-last-sample=false"
        let aloud = movie.playsAloud && movie.hasSound && SoundServer.find() != nil
        if sound != nil || aloud {
            description += " decode. ! audioconvert ! audioresample ! capsfilter caps=\"\(Self.soundCaps)\" ! tee name=heard"
            if sound != nil {
                description += " heard. ! queue max-size-buffers=0 max-size-bytes=0 max-size-time=500000000"
                    + " ! appsink name=sound sync=true drop=false enable-last-sample=false"
            }
            if aloud {
                // The sound server's default output, on the feeder's (system) clock.
                description += " heard. ! queue max-size-buffers=0 max-size-bytes=0 max-size-time=500000000"
                    + " ! pulsesink name=speaker provide-clock=false sync=true"
            }
        }
        let name = "--device \(movie.deviceName)"
        (pipeline, bus) = try MoviePipeline.prerolled(description, name: name)
        var streams = [FeedStream(sink: try MoviePipeline.appSink("frames", in: pipeline, movie: name), into: target,
                                  feeder: pipeline, recording: recording, stamping: .arrival(frameDuration: frameDuration))]
        if let sound {
            streams.append(FeedStream(sink: try MoviePipeline.appSink("sound", in: pipeline, movie: name), into: sound,
                                      feeder: pipeline, recording: recording, stamping: .due))
        }
        self.streams = streams
    }

    /// Starts playing (call once the recording's pipeline plays); `ended` is called once,
    /// on the feeder's own thread, when the movie ended without `--loop` (nil) or failed
    /// (its message), just before the appsrcs' streams end.
    func start(ended: @escaping @Sendable (String?) -> Void) throws(CamrecError) {
        // Stopped before it started (a canvas whose camera never delivered): nothing to play.
        guard !state.withLock({ $0.stopped }) else { return }
        for stream in streams { stream.start() }
        // --loop: played as a segment, whose end is announced ("segment-done") instead of
        // ending the stream; the next pass is a seek without flushing, so the running time
        // goes on.
        if movie.loop, pipeline.seek(to: 0, stop: passEnd, flags: [.flush, .accurate, .segment]) {
            _ = pipeline.waitForStateChange(timeoutNanoseconds: 10_000_000_000)
        }
        do {
            _ = try pipeline.setStateThrowingPostedError(.playing)
        } catch {
            stop()
            throw CamrecError(.invalidInput, "--device \(movie.deviceName) cannot be played: \(error)")
        }
        NamedThread.start("camrec-movie") { [self] in readBus(ended: ended) }
    }

    /// Stops playing; safe to call more than once, from any thread.
    func stop() {
        state.withLock { $0.stopped = true }
        for stream in streams { stream.stop() }
        _ = bus.postApplicationMessage(Self.stopMessage)
        _ = try? pipeline.setState(.null)
    }

    /// The caps the feeder makes: the recording's, without the rate when the movie's own is
    /// kept (a movie's caps may say it a little differently, e.g. 2997/100 for 30000/1001).
    static func caps(_ movie: MovieSource) -> String {
        guard !movie.changesRate else { return movie.format.caps }
        return movie.format.caps.split(separator: ",").filter { !$0.hasPrefix("framerate=") }.joined(separator: ",")
    }

    /// Where a pass of `--loop` ends: the movie's duration, given as the segment's end.
    private var passEnd: UInt64? { movie.duration.map { UInt64(($0 * 1e9).rounded()) } }

    /// Frames handed over so far, and how many times the movie started again.
    var progress: (frames: Int, loops: Int) { (streams[0].pushed, state.withLock { $0.loops }) }

    /// Reads the feeder's bus until it is stopped: at the movie's end, starts again
    /// (`--loop`) or ends; on an error, ends with its message.
    private func readBus(ended: @Sendable (String?) -> Void) {
        while true {
            guard let message = bus.pop(timeoutNanoseconds: nil) else { continue }
            switch message {
            case .application(_, Self.stopMessage):
                return
            case .other(_, "segment-done"):
                if !state.withLock({ $0.stopped }), pipeline.seek(to: 0, stop: passEnd, flags: [.accurate, .segment]) {
                    state.withLock { $0.loops += 1 }
                    continue
                }
                finish(nil, ended: ended)
                return
            case .endOfStream:
                finish(nil, ended: ended)
                return
            case .error(let failure):
                finish("the movie failed to play on: \(failure.message)", ended: ended)
                return
            default:
                continue
            }
        }
    }

    /// Tells the recording the movie is over (unless it was stopped), then ends the appsrcs' streams.
    private func finish(_ message: String?, ended: @Sendable (String?) -> Void) {
        guard !state.withLock({ $0.stopped }) else { return }
        ended(message)
        for stream in streams { stream.end() }
    }

}

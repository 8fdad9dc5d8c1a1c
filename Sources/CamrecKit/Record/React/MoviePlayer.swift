import CamrecCore
import GStreamer
import Synchronization

/// Plays a movie for a person to watch while a recording runs (`camrec react --separate`):
/// its picture in a preview window (or nowhere, headless), its sound on the sound
/// server's default output, in real time on the system clock. It notes when its first
/// frame was shown, so that the recording can say where in its own movie the video starts.
final class MoviePlayer: Sendable {
    let movie: MovieSource
    private let pipeline: Pipeline
    private let bus: Bus
    private let frames: AppSink
    private struct State {
        var stopped = false
        var started = false
        var callbacks: AppSinkCallbacksToken?
        var firstFrameShown: WallTime?
        var firstFrameProbe: ProbeToken?
    }
    private let state = Mutex(State())
    private static let stopMessage = "camrec-player-stop"

    /// A player of `movie`, opened and its first frame decoded (PAUSED).
    init(movie: MovieSource) throws(CamrecError) {
        self.movie = movie
        var description = "filesrc location=\"\(Pipeline.escapeForParser(movie.path))\" ! decodebin name=decode"
            + " decode. ! videoconvert ! queue max-size-buffers=3 max-size-bytes=0 max-size-time=0"
            + " ! capsfilter caps=\"\(MovieFeeder.caps(movie))\" ! appsink name=frames sync=true max-buffers=2 drop=false enable-last-sample=false"
        if movie.hasSound, SoundServer.find() != nil {
            description += " decode. ! audioconvert ! audioresample ! queue max-size-buffers=0 max-size-bytes=0 max-size-time=500000000"
                + " ! pulsesink name=speaker provide-clock=false sync=true"
        }
        let name = "--device \(movie.deviceName)"
        (pipeline, bus) = try MoviePipeline.prerolled(description, name: name)
        frames = try MoviePipeline.appSink("frames", in: pipeline, movie: name)
    }

    /// Starts playing, once, its frames shown in `window` (nil: headless); `ended` is called
    /// once when the movie ends or fails (its message), on the player's own thread.
    func start(window: PreviewWindow?, ended: @escaping @Sendable (String?) -> Void) {
        let first = state.withLock { state -> Bool in
            defer { state.started = true }
            return !state.started && !state.stopped
        }
        guard first else { return }
        if let pad = try? frames.staticPad("sink") {
            let probe = pad.addProbe(.buffer) { [self] _ in
                state.withLock { $0.firstFrameShown = $0.firstFrameShown ?? WallTime.now() }
                return .remove
            }
            state.withLock { $0.firstFrameProbe = probe }
        }
        let token: AppSinkCallbacksToken
        if let window {
            let started = WallTime.now()
            token = window.show(framesOf: frames) {
                let now = WallTime.now()
                return PreviewStatus(label: "REACT", elapsed: Double(now.seconds - started.seconds) + Double(now.nanoseconds - started.nanoseconds) / 1e9,
                                     limit: self.movie.duration)
            }
        } else {
            // Headless: the frames are taken and dropped, so the movie plays on at its pace.
            token = frames.setCallbacks(newSample: { view in
                _ = view.pullSample()
                return .ok
            })
        }
        state.withLock { $0.callbacks = token }
        do {
            _ = try pipeline.setStateThrowingPostedError(.playing)
        } catch {
            ended("the video could not be played: \(error)")
            return
        }
        NamedThread.start("camrec-player") { [self] in
            while true {
                guard let message = bus.pop(timeoutNanoseconds: nil) else { continue }
                switch message {
                case .application(_, Self.stopMessage):
                    return
                case .endOfStream:
                    if !state.withLock({ $0.stopped }) { ended(nil) }
                    return
                case .error(let failure):
                    if !state.withLock({ $0.stopped }) { ended("the video failed to play on: \(failure.message)") }
                    return
                default:
                    continue
                }
            }
        }
    }

    /// When the first frame was shown; nil before.
    var firstFrameShown: WallTime? { state.withLock { $0.firstFrameShown } }

    /// Stops playing; safe to call more than once.
    func stop() {
        let (token, probe) = state.withLock { state -> (AppSinkCallbacksToken?, ProbeToken?) in
            state.stopped = true
            defer { (state.callbacks, state.firstFrameProbe) = (nil, nil) }
            return (state.callbacks, state.firstFrameProbe)
        }
        token?.remove()
        probe?.remove()
        _ = bus.postApplicationMessage(Self.stopMessage)
        _ = try? pipeline.setState(.null)
    }
}

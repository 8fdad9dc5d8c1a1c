import GStreamer
import Synchronization

/// The movies a recording plays as cameras (`--device file:PATH`): the one source of a
/// movie of its own ("src"), or each movie among a canvas's cameras ("camera1", …), each
/// with its ``MovieFeeder``. When one ends, the recording's bus gets ``endedMessage``,
/// and the recording ends as at `--max-duration` (reason `source-ended`).
final class MovieFeeds: Sendable {
    /// Posted on the recording's bus when a movie ended (without `--loop`) or failed.
    static let endedMessage = "camrec/source-ended"

    private let feeders: [MovieFeeder]
    /// The first movie's failure, when it did not simply end.
    private let failure = Mutex<String?>(nil)
    /// On a canvas with cameras: the first camera's source element, whose first frame
    /// starts the movies (they then start in step with the cameras instead of running ahead
    /// while the cameras open); nil: the movies start with the pipeline.
    private let firstCamera: Element?
    /// The probe waiting for that frame, while it waits.
    private let waiting = Mutex<ProbeToken?>(nil)

    /// The feeders of `config`'s movies in `pipeline` (none when it has none): each movie
    /// is opened and its first frame decoded now.
    init(config: RecordConfig, pipeline: Pipeline) throws(CamrecError) {
        var movies: [(movie: MovieSource, element: String)] = []
        var firstCamera: Element?
        if let composition = config.composition {
            for (index, camera) in composition.cameras.enumerated() {
                if let movie = camera.movie {
                    movies.append((movie, "camera\(index + 1)"))
                } else if firstCamera == nil {
                    firstCamera = try? pipeline.element(named: "camera\(index + 1)")
                }
            }
        } else if let movie = config.source.movie {
            movies.append((movie, "src"))
        }
        var feeders: [MovieFeeder] = []
        for (movie, name) in movies {
            let target: AppSrc
            do {
                target = try AppSrc(pipeline.element(named: name))
            } catch {
                for feeder in feeders { feeder.stop() }
                throw CamrecError(.usage, "the pipeline template needs an appsrc named '\(name)' for --device \(movie.deviceName) (\(error))")
            }
            // --audio file: this movie's sound is the recording's.
            var sound: AppSrc?
            if config.audio?.input.element.moviePath == movie.path {
                do {
                    sound = try AppSrc(pipeline.element(named: "audiosrc"))
                } catch {
                    for feeder in feeders { feeder.stop() }
                    throw CamrecError(.usage, "the pipeline template needs {audio} with an appsrc named 'audiosrc' for --audio file (\(error))")
                }
            }
            do {
                feeders.append(try MovieFeeder(movie: movie, into: target, sound: sound, recording: pipeline))
            } catch {
                for feeder in feeders { feeder.stop() }
                throw error
            }
        }
        self.feeders = feeders
        self.firstCamera = movies.isEmpty ? nil : firstCamera
    }

    /// Whether any movie is played.
    var isEmpty: Bool { feeders.isEmpty }

    /// Starts every movie (the recording's pipeline plays), or, on a canvas with cameras,
    /// has the first camera's first frame start them; the end of one is posted on `bus`.
    func start(bus: Bus) throws(CamrecError) {
        guard let firstCamera, let pad = try? firstCamera.staticPad("src") else {
            try startFeeders(bus: bus)
            return
        }
        let token = pad.addProbe(.buffer) { [self] _ in
            // On the camera's streaming thread; the movies' pipelines are their own.
            do throws(CamrecError) {
                try startFeeders(bus: bus)
            } catch {
                failure.withLock { $0 = $0 ?? error.message }
                _ = bus.postApplicationMessage(Self.endedMessage)
            }
            return .remove
        }
        waiting.withLock { $0 = token }
    }

    /// Starts every movie now.
    private func startFeeders(bus: Bus) throws(CamrecError) {
        for feeder in feeders {
            do {
                try feeder.start { [self] message in
                    if let message { failure.withLock { $0 = $0 ?? "--device \(feeder.movie.deviceName): \(message)" } }
                    _ = bus.postApplicationMessage(Self.endedMessage)
                }
            } catch {
                stop()
                throw error
            }
        }
    }

    /// Stops every movie; safe to call more than once.
    func stop() {
        waiting.withLock { $0 }?.remove()
        for feeder in feeders { feeder.stop() }
    }

    /// Why a movie ended early (it failed mid-way); nil when it simply ended.
    var failureMessage: String? { failure.withLock { $0 } }
}

extension Composition {
    /// Marks the movies played in place of cameras (`movies`, in camera order; nil: a camera).
    mutating func setMovies(_ movies: [MovieSource?]) {
        for (index, movie) in movies.enumerated() where cameras.indices.contains(index) {
            cameras[index].movie = movie
        }
    }
}

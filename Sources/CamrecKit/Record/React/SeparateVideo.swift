import FoundationEssentials
import MP4
import Synchronization

/// `camrec react --separate`: the video plays for the person (a window, the default sound
/// output) while the camera records its own movie; the recording's end says where in that
/// movie the video started (`react` line), so that an editor can put them together.
public struct SeparateVideo: Sendable, Equatable {
    /// The video, as checked before anything starts.
    public var movie: MovieSource
    /// Whether and how the video's window opens.
    public var preview: PreviewRequest

    public init(movie: MovieSource, preview: PreviewRequest) {
        self.movie = movie
        self.preview = preview
    }
}

/// Where the video started in the camera's movie, as the JSON `react` line reports it.
public struct ReactLine: Sendable, Codable, Equatable {
    /// The video played.
    public var video: String
    /// The camera's movie.
    public var path: String
    /// Seconds from the movie's first frame to the moment the video's first frame was shown
    /// (negative: the video started first), to the millisecond.
    public var offset: Double
}

/// The playback of a ``SeparateVideo`` during a recording: opened before the camera, started
/// when the recording starts, and ending the recording (source-ended) when the video ends.
final class SeparateVideoPlayback: Sendable {
    private let video: SeparateVideo
    private let player: MoviePlayer
    private let window: PreviewWindow?
    /// Stops the recording: set once the run exists.
    private let stopRun = Mutex<(@Sendable () -> Void)?>(nil)
    private let warn: @Sendable (String) -> Void

    /// Opens the video (PAUSED) and its window (`video.preview`); `warn` says what goes wrong later.
    init(_ video: SeparateVideo, warn: @escaping @Sendable (String) -> Void) throws(CamrecError) {
        self.video = video
        self.warn = warn
        player = try MoviePlayer(movie: video.movie)
        do {
            window = try video.preview.open(environment: ProcessInfo.processInfo.environment, warn: warn)
        } catch {
            player.stop()
            throw error
        }
    }

    /// The recording ends with the video: `stop` stops it.
    func endRecording(with stop: @escaping @Sendable () -> Void) {
        stopRun.withLock { $0 = stop }
    }

    /// Starts the video (once) when the recording has started.
    func recordingStarted() {
        player.start(window: window) { [self] message in
            if let message { warn("--separate: \(video.movie.path): \(message)") }
            stopRun.withLock { $0 }?()
        }
    }

    /// Where the video started in the recording's first movie; nil when it never played.
    func line(for result: RecordingResult) -> ReactLine? {
        guard let shown = player.firstFrameShown, let movie = result.files.first(where: { $0.kind == "movie" }),
              let start = movie.start.flatMap({ CaptureTimeStamp(iso8601: $0) })?.unixMilliseconds else { return nil }
        let shownMilliseconds = shown.seconds * 1000 + shown.nanoseconds / 1_000_000
        return ReactLine(video: video.movie.path, path: movie.path, offset: Double(shownMilliseconds - start) / 1000)
    }

    /// Stops the video and closes its window.
    func close() {
        player.stop()
        window?.close()
    }
}

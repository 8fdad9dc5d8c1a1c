import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// A movie played as a camera (`--device file:PATH`): camrec decodes it in a pipeline of
/// its own (``MovieFeeder``) and hands each frame to the recording in real time, stamped
/// with the moment it is handed over, as a camera's frame carries the moment it was captured.
/// The recording sees raw I420 frames at the size and rate chosen here.
public struct MovieSource: Sendable, Equatable {
    /// What `--device` takes before the path.
    public static let prefix = "file:"

    /// The movie's path, as given after `file:`.
    public var path: String
    /// The frames the recording gets: I420 at the movie's size (or `--size`) and rate (or `--fps`).
    public var format: CameraFormat
    /// `--loop`: start again at the end, for ever, instead of ending the run.
    public var loop = false
    /// Whether the movie has sound (`--audio file` records it).
    public var hasSound: Bool
    /// How long the movie plays, when it says.
    public var duration: Double?
    /// Whether its frames are made steady at `format`'s rate (`videorate`): it has no
    /// steady rate of its own, or `--fps` asks for another. Without, each frame is handed
    /// over as the movie times it.
    public var changesRate = false
    /// `camrec react`: its sound also plays on the sound server's default output, in time
    /// with its picture (when a sound server answers).
    public var playsAloud = false

    public init(path: String, format: CameraFormat, hasSound: Bool, duration: Double? = nil) {
        self.path = path
        self.format = format
        self.hasSound = hasSound
        self.duration = duration
    }

    /// The path of a `--device` value that names a movie ("file:PATH"); nil for a camera.
    /// An empty path is a usage error.
    public static func path(inDevice device: String) throws(CamrecError) -> String? {
        guard device.hasPrefix(prefix) else { return nil }
        let path = String(device.dropFirst(prefix.count))
        guard !path.isEmpty else {
            throw CamrecError(.usage, "--device file: needs a movie's path after it, e.g. --device file:clip.mp4")
        }
        return path
    }

    /// The source as `started` and `{device}` show it: "file:PATH".
    public var deviceName: String { Self.prefix + path }

    /// The raw frames' caps, for the recording's appsrc and capsfilter.
    static func caps(size: FrameSize, rate: FrameRateValue) -> String {
        "video/x-raw,format=I420,width=\(size.width),height=\(size.height),framerate=\(rate.numerator)/\(rate.denominator),pixel-aspect-ratio=1/1"
    }

    /// The recording's source element for this movie (its name follows): a live appsrc
    /// that ``MovieFeeder`` fills, dropping a frame when the recording falls behind (as a
    /// camera does) rather than slowing the movie down.
    var element: String {
        "appsrc is-live=true format=time do-timestamp=false max-buffers=4 leaky-type=upstream"
            + " caps=\"\(format.caps)\""
    }

    /// What `--print-pipeline` shows for it (its name follows): the same decoding in
    /// gst-launch-1.0 syntax, played in real time by `clocksync` (gst-launch cannot fill an
    /// appsrc). `quote` quotes the path for the shell.
    func printedElement(quote: (String) -> String) -> String {
        "filesrc location=\(quote(path)) ! decodebin ! videoconvert ! videoscale ! videorate ! \(format.caps) ! clocksync"
    }
}

extension AudioInput {
    /// `--audio file`: the sound of the first movie among `sources` that has one.
    /// Refused (64) when none is a movie, or none has sound; with `firstOnly` (several
    /// cameras in movies of their own: the first records the sound), when the first is not one.
    public static func movie(among sources: [VideoSource], firstOnly: Bool = false) throws(CamrecError) -> AudioInput {
        if firstOnly, sources.first?.movie == nil, sources.contains(where: { $0.movie != nil }) {
            throw CamrecError(.usage, "--audio file: in movies of their own, the first --device records the sound: give the movie's --device file:PATH first")
        }
        let movies = sources.compactMap(\.movie)
        guard !movies.isEmpty else {
            throw CamrecError(.usage, "--audio file records the sound of a movie played as a camera: give --device file:PATH too")
        }
        guard let movie = movies.first(where: \.hasSound) else {
            throw CamrecError(.usage, "--audio file: \(movies[0].path) has no sound track: give another --audio, or none")
        }
        return AudioInput(element: .movie(path: movie.path), channels: 2, rate: 48000, reason: "the sound of the movie \(movie.path)")
    }
}

/// How `camrec react` mixes the movie's sound with the microphone (`--mix VIDEO:CAMERA`,
/// in dB): each one's gain, linear.
public struct SoundMix: Sendable, Equatable {
    /// The movie's gain (default -6 dB: the voice over it stays clear).
    public var movieGain: Double
    /// The microphone's gain (default 0 dB).
    public var microphoneGain: Double

    /// The default: the movie at -6 dB, the microphone as it is.
    public static let standard = SoundMix(movieDecibels: -6, microphoneDecibels: 0)

    public init(movieDecibels: Double, microphoneDecibels: Double) {
        movieGain = Self.gain(movieDecibels)
        microphoneGain = Self.gain(microphoneDecibels)
    }

    static func gain(_ decibels: Double) -> Double { (pow(10, decibels / 20) * 10_000).rounded() / 10_000 }

    /// `--mix VIDEO:CAMERA`, each level in dB from -60 to +12 (e.g. -6:0, -12:3); usage errors otherwise.
    public static func parse(_ text: String) throws(ValueError) -> SoundMix {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false).map { String($0.filter { $0 != " " }) }
        let levels = parts.compactMap { Double($0.hasSuffix("dB") ? String($0.dropLast(2)) : $0) }
        guard parts.count == 2, levels.count == 2, levels.allSatisfy({ (-60...12).contains($0) }) else {
            throw ValueError("give the video's and the camera's levels in dB, -60 to 12, as VIDEO:CAMERA, e.g. --mix -6:0")
        }
        return SoundMix(movieDecibels: levels[0], microphoneDecibels: levels[1])
    }
}

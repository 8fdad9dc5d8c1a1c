import FoundationEssentials

/// `camrec react VIDEO OUTPUT`'s options as given (the mobile camera SDKs' reaction mode):
/// the video plays (in the preview window, and its sound on the default output) while
/// the camera and microphone record, and OUTPUT has the camera picture-in-picture over
/// the video, both sounds mixed. ``job()`` makes it a recording (`RecordArguments`) of
/// the video (`--device file:VIDEO`) and the camera on a canvas of the video's size.
public struct ReactArguments: Sendable, Equatable {
    /// VIDEO and OUTPUT; nil when missing.
    public var video, output: String?
    /// `--device`: the camera (default: the first).
    public var camera: String?
    /// `--audio`: the microphone (default: the system's default input; `none`: the video's sound alone).
    public var audio: String?
    /// `--mix VIDEO:CAMERA` in dB.
    public var mix: String?
    /// `--pip CORNER:SIZE`.
    public var pip: String?
    /// `--preview` given bare, `--preview=VALUE`, `--no-preview`.
    public var preview = false, previewValue: String?, noPreview = false
    /// `--max-duration`.
    public var maxDuration: String?
    /// `--force`.
    public var force = false
    /// `--separate`: the camera's own movie, and where in it the video started.
    public var separate = false

    /// Where the camera sits over the video unless `--pip` says.
    public static let defaultPlacement = "bottom-right:30%"

    public init(video: String?, output: String?) {
        self.video = video
        self.output = output
    }

    /// The recording that makes the reaction. The video is checked first (a video that
    /// cannot be played is refused before the camera is opened). Usage errors otherwise.
    public func job() throws(CamrecError) -> RecordJob {
        guard let video else { throw CamrecError(.usage, "missing VIDEO: give the video to react to, e.g. camrec react clip.mp4 reaction.mp4") }
        guard output != nil else { throw CamrecError(.usage, "missing OUTPUT: give the movie to write, e.g. camrec react \(video) reaction.mp4") }
        let device = MovieSource.prefix + video
        let movie = try MovieProbe.resolve(path: video, size: nil, rate: nil)
        if separate { return try separateJob(movie) }
        let mixed = try OptionValue.parse("--mix", mix, SoundMix.parse) ?? .standard
        let placement = "pip:" + (pip ?? Self.defaultPlacement)
        if pip != nil, (try? CanvasLayout.parse(placement)) == nil {
            throw CamrecError(.usage, "--pip \(pip ?? ""): give CORNER:SIZE, e.g. --pip top-left:25% (corners: top-left, top-right, bottom-left, bottom-right; sizes 5% to 60%)")
        }
        let picture = try PictureRequest.parse(rotate: nil, flip: nil, mirror: false, overlay: nil, overlayPosition: nil,
                                               overlayImage: nil, overlayImagePosition: nil)
        var given = RecordArguments(camera: CameraRequest(devices: [device, camera ?? "0"]), picture: picture, output: output)
        given.layout = LayoutRequest(layout: placement, canvas: "\(movie.size.width)x\(movie.size.height)")
        given.audio = audio
        // --audio none: the video's sound alone.
        if audio == "none" || audio == "off" { given.audio = "file" } else { given.mix = mixed }
        if mix != nil, given.mix == nil {
            throw CamrecError(.usage, "--mix mixes the video's sound with the microphone's: drop --audio none, or --mix")
        }
        // The reaction ends with the video unless a limit is given.
        given.maxDuration = maxDuration ?? "0"
        (given.preview, given.previewValue) = noPreview ? (false, nil) : (true, preview ? previewValue : (previewValue ?? "auto"))
        given.force = force
        given.playsAloud = true
        return try given.job()
    }

    /// `--separate`: a recording of the camera (and the microphone) alone; the video plays
    /// beside it in a window of its own, and the `react` line says where it started.
    private func separateJob(_ video: CameraResolver.Resolution) throws(CamrecError) -> RecordJob {
        guard var movie = video.source.movie else { throw CamrecError(.failure, "the video is not a movie") }
        if mix != nil { throw CamrecError(.usage, "--mix mixes the two sounds into one movie: with --separate the camera's movie has the microphone alone; drop --mix or --separate") }
        if pip != nil { throw CamrecError(.usage, "--pip places the camera over the video in one movie: with --separate the camera's movie is its own; drop --pip or --separate") }
        movie.playsAloud = true
        let picture = try PictureRequest.parse(rotate: nil, flip: nil, mirror: false, overlay: nil, overlayPosition: nil,
                                               overlayImage: nil, overlayImagePosition: nil)
        var given = RecordArguments(camera: CameraRequest(devices: [camera ?? "0"]), picture: picture, output: output)
        given.audio = audio ?? "default"
        given.maxDuration = maxDuration ?? "0"
        given.force = force
        var job = try given.job()
        let window = try PreviewRequest.parse(given: !noPreview, value: noPreview ? nil : (preview ? previewValue : (previewValue ?? "auto")),
                                              stops: false)
        job.separateVideo = SeparateVideo(movie: movie, preview: window)
        return job
    }
}

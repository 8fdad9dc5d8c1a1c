/// A recording's plan, made by `RecordingPlanner` before any camera starts: how the
/// cameras are laid out and every file the run may write, each name checked once against
/// the others. A value: no closures, no I/O (`checkDestinations` looks at the file system).
public struct RecordingPlan: Sendable, Equatable {
    /// How the cameras become movies.
    public enum Topology: Sendable, Equatable {
        /// One camera, one movie (or series).
        case oneCamera
        /// One movie (or series) per camera, all started at the same instant.
        case separateMovies(allOrNothing: Bool)
        /// Every camera on one canvas, one movie.
        case canvas(CanvasLayout, size: FrameSize, allOrNothing: Bool)
    }

    /// The files of one movie (a camera's own, or the canvas's): the movie or its series,
    /// its stills and its event clips.
    public struct MovieOutputs: Sendable, Equatable {
        /// The movie's path; with `standby` it only names the clips.
        public var movie: String
        /// Its series (`--segment`, `--reconnect`), named from `movie`; nil: one movie.
        public var segments: SegmentSettings?
        /// Its stills' format, period and names.
        public var stills: StillSettings
        /// Its event clips, named after it or from `--clips`; nil: no clips.
        public var clips: ClipSettings?

        /// The name clips are written under.
        public var clipNaming: SegmentNaming? { clips?.naming(moviePath: movie) }
    }

    /// How the cameras are laid out.
    public var topology: Topology
    /// Every movie the run writes: one per camera, or the canvas's one.
    public var movies: [MovieOutputs]
    /// With a canvas, each camera's own stills (beside the canvas's); otherwise empty.
    public var cameraStills: [StillSettings]
    /// `--standby`: no movie is written, the movies' names only name clips.
    public var standby: Bool
    /// `--force`: an existing movie is replaced (never with a series).
    public var overwrite: Bool
    /// Options that are valid but will not do what was asked, for the user.
    public var warnings: [String]

    /// Whether the run has more than one camera.
    public var isSeveralCameras: Bool { topology != .oneCamera }
}

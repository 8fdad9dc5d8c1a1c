import FoundationEssentials

/// Makes a `RecordingPlan` from a `RecordingRequest`: the one place where a run's
/// topology is chosen, its files are named and their names checked against each other,
/// and the requests a run cannot do are refused. Pure: no device is opened, no file looked
/// at, so every rule is a unit test (`RecordingPlannerTests`).
public enum RecordingPlanner {
    /// Refuses what no camera could change (exit 64), before any camera is looked for.
    public static func check(_ request: RecordingRequest) throws(CamrecError) {
        // A mask is burnt into decoded frames; copied frames are never decoded.
        if request.codecCopy, request.masked {
            throw CamrecError(.usage, "--mask and --mask-image black out parts of decoded frames, but --codec copy stores the camera's frames as they come, never decoded: give --codec h264 (or leave --codec out) to record masked")
        }
        guard request.isSeveralCameras else { return }
        let devices = request.devices
        if request.outputPerDevice {
            guard devices.count > 1 else {
                throw CamrecError(.usage, "--output-per-device names the movies of several cameras: give --device once per camera, or leave it out and name the movie as OUTPUT")
            }
            guard CameraNaming.hasFields(request.output) else {
                throw CamrecError(.usage, "--output-per-device: \(request.output) has neither {index} nor {device}, so every camera would write the same file: give a pattern such as lab-{device}.mp4")
            }
        }
        if request.allOrNothing, devices.count < 2 {
            throw CamrecError(.usage, "--all-or-nothing is about several cameras: give --device once per camera, or leave it out")
        }
        if let twice = devices.first(where: { device in devices.count { $0 == device } > 1 }) {
            throw CamrecError(.usage, "--device \(twice) is given twice: give each camera once")
        }
        if request.layout != nil { try checkCanvas(request) }
    }

    /// The plan for the cameras found at `devicePaths` (one per camera, in `--device`
    /// order; "test" for the test pattern): `{device}` in names is a path's last part.
    /// `now` fills in time fields where names are compared.
    public static func plan(_ request: RecordingRequest, devicePaths: [String],
                            now: Date = Date()) throws(CamrecError) -> RecordingPlan {
        try check(request)
        var warnings: [String] = []
        if request.segments != nil, request.force {
            warnings.append("--force does nothing with --segment: movies of a segmented run never replace a file (a taken name gets -2)")
        }
        if request.segments == nil, !request.isSeveralCameras, PathName.last(request.output).contains("%") {
            warnings.append("\(PathName.last(request.output)) is used as written: time fields and counters are filled in only with --segment")
        }
        guard request.isSeveralCameras else {
            let movie = try outputs(request, movie: request.output, segments: request.segments,
                                    stillsPattern: request.stillsPattern, clipsPattern: request.clipsPattern)
            return RecordingPlan(topology: .oneCamera, movies: [movie], cameraStills: [], standby: request.standby,
                                 overwrite: request.force, warnings: warnings)
        }
        let cameras = try cameraOutputs(request, devicePaths: devicePaths, now: now)
        guard let layout = request.layout else {
            try checkSeries(cameras.compactMap(\.segments?.naming), now: now)
            return RecordingPlan(topology: .separateMovies(allOrNothing: request.allOrNothing), movies: cameras,
                                 cameraStills: [], standby: request.standby, overwrite: request.force, warnings: warnings)
        }
        // The canvas's own series only with --segment or --schedule (a movie per window):
        // --reconnect brings a lost camera back into its cell, in the same movie. Its
        // stills and clips read {index} and {device} as "canvas".
        let canvas = try outputs(request, movie: request.output,
                                 segments: request.segmentGiven || request.scheduled ? request.segments : nil,
                                 stillsPattern: request.stillsPattern.map(canvasName),
                                 clipsPattern: request.clipsPattern.map(canvasName))
        for (index, camera) in cameras.enumerated() where camera.stills.naming.path(1) == canvas.stills.naming.path(1) {
            throw CamrecError(.usage, "--stills: the canvas and camera \(index + 1) would write the same stills: put {index} or {device} in the pattern")
        }
        return RecordingPlan(topology: .canvas(layout, size: request.canvas, allOrNothing: request.allOrNothing),
                             movies: [canvas], cameraStills: cameras.map(\.stills), standby: request.standby,
                             overwrite: request.force, warnings: warnings)
    }

    /// `text` with its camera fields for the canvas.
    static func canvasName(_ text: String) -> String {
        text.replacing("{index}", with: "canvas").replacing("{device}", with: "canvas")
    }

    /// Each camera's own movie, series, stills and clips, refusing names two cameras share.
    static func cameraOutputs(_ request: RecordingRequest, devicePaths: [String],
                              now: Date) throws(CamrecError) -> [RecordingPlan.MovieOutputs] {
        var cameras: [RecordingPlan.MovieOutputs] = []
        for (offset, devicePath) in devicePaths.enumerated() {
            let index = offset + 1
            let device = PathName.last(devicePath)
            let movie = CameraNaming.fill(request.output, index: index, device: device, pattern: request.outputPerDevice)
            if cameras.contains(where: { $0.movie == movie }) {
                throw CamrecError(.usage, "--output-per-device: two cameras would both write \(movie): use {index} in the pattern")
            }
            // A segment pattern is the camera's own series, named as one camera's.
            var segments = request.segments
            if let series = segments {
                segments?.naming = try SegmentNaming(output: movie, utc: series.naming.utc)
            }
            let own = { (text: String) -> String in
                CameraNaming.fill(text, index: index, device: device, pattern: CameraNaming.hasFields(text))
            }
            // A --stills folder takes each camera's stills under its own movie's name.
            let stills = request.stillsPattern.map { $0.contains("%") || CameraNaming.hasFields($0) ? own($0) : $0 }
            let outputs = try outputs(request, movie: movie, segments: segments, stillsPattern: stills,
                                      clipsPattern: request.clipsPattern.map(own))
            if let taken = cameras.firstIndex(where: { $0.stills.naming.path(1) == outputs.stills.naming.path(1) }) {
                throw CamrecError(.usage, "--stills: cameras \(taken + 1) and \(index) would write the same stills: put {index} or {device} in the pattern")
            }
            if let first = outputs.clipNaming?.path(counter: 1, date: now),
               let taken = cameras.firstIndex(where: { $0.clipNaming?.path(counter: 1, date: now) == first }) {
                throw CamrecError(.usage, "--clips: cameras \(taken + 1) and \(index) would write the same clips: put {index} or {device} in the pattern")
            }
            cameras.append(outputs)
        }
        return cameras
    }

    /// One movie's files: its series, its stills beside it (or from `stillsPattern`) and
    /// its clips named after it (or from `clipsPattern`).
    static func outputs(_ request: RecordingRequest, movie: String, segments: SegmentSettings?,
                        stillsPattern: String?, clipsPattern: String?) throws(CamrecError) -> RecordingPlan.MovieOutputs {
        // A series' stills and clips are named after its name without fields (cam.mp4).
        let base = segments?.naming.stillBase ?? movie
        let format = request.stills.format
        let quality = if case .jpeg(let quality) = format { quality } else { StillFormat.defaultQuality }
        var stills = try StillSettings.resolve(pattern: stillsPattern, format: format, quality: quality,
                                               every: request.stills.every, moviePath: base)
        stills.tags.location = request.location
        var clips = request.clips
        clips?.namedAfter = base
        clips?.retention = request.retention
        if let text = clipsPattern {
            do {
                clips?.pattern = try SegmentNaming(output: text, utc: request.utc)
            } catch {
                throw CamrecError(.usage, "--clips: " + error.message)
            }
        }
        return RecordingPlan.MovieOutputs(movie: movie, segments: segments, stills: stills, clips: clips)
    }

    /// Refuses series of which one would take another camera's movies for its own (its
    /// counter, retention and `--keep` would then mix them), e.g. `lab-{index}%04d.mp4`,
    /// where camera 1's `lab-1` and a counter also read camera 11's names.
    static func checkSeries(_ namings: [SegmentNaming], now: Date) throws(CamrecError) {
        for (one, naming) in namings.enumerated() {
            for (other, theirs) in namings.enumerated() where other != one && theirs.folder == naming.folder {
                for counter in [1, 1000] where naming.match(PathName.last(theirs.path(counter: counter, date: now))) != nil {
                    throw CamrecError(.usage, "--segment: camera \(one + 1)'s movies would also match camera \(other + 1)'s names (\(PathName.last(theirs.path(counter: counter, date: now)))): separate {index} or {device} from the counter and time fields, e.g. lab-{index}-%04d.mp4")
                }
            }
        }
    }

    /// Refuses what a composed run cannot do.
    static func checkCanvas(_ request: RecordingRequest) throws(CamrecError) {
        guard request.devices.count > 1 else {
            throw CamrecError(.usage, "--layout composes several cameras: give --device once per camera (e.g. -d 0 -d 2), or leave --layout out")
        }
        if request.outputPerDevice {
            throw CamrecError(.usage, "--layout records one movie at OUTPUT, --output-per-device one per camera: give one of them")
        }
        // A lost camera comes back into its cell, in the same movie: --reconnect alone makes
        // no series for retention to keep in check (clips are kept in check by it too).
        if !request.segmentGiven, !request.scheduled, request.retention != nil, request.clips == nil {
            throw CamrecError(.usage, "with --layout, --keep, --keep-size and --min-free apply to a series: add --segment T (e.g. --segment 10m); --reconnect alone brings a lost camera back into the same movie")
        }
        if request.customPipeline {
            throw CamrecError(.usage, "--layout records with pipelines/compose.pipeline, so --pipeline does not apply: leave it out")
        }
        // Physically impossible: a canvas is drawn from decoded pictures and encoded anew.
        if request.codecCopy {
            throw CamrecError(.usage, "--codec copy stores a camera's frames as they come, but --layout draws every camera's picture onto one canvas, which is encoded anew: give --codec h264 (or leave --codec out)")
        }
    }
}

/// How several cameras' names are made from one: `NAME-1.EXT`, `NAME-2.EXT`, …, or a
/// pattern's `{index}` and `{device}` filled in.
public enum CameraNaming {
    /// The name of camera `index` (1-based) at `device` (a path's last part, e.g. video0):
    /// `-INDEX` before the extension, or `{index}` and `{device}` filled in (`pattern`).
    public static func fill(_ name: String, index: Int, device: String, pattern: Bool) -> String {
        guard pattern else {
            let (stem, ext) = OutputFile.split(name)
            return stem + "-\(index)" + ext
        }
        return name.replacing("{index}", with: "\(index)").replacing("{device}", with: PathName.last(device))
    }

    /// Whether `name` has a camera's fields, `{index}` or `{device}`.
    public static func hasFields(_ name: String) -> Bool {
        name.contains("{index}") || name.contains("{device}")
    }
}

/// What `camrec doctor` is asked to look at.
public struct DoctorRequest: Sendable, Equatable {
    /// `--device`: the camera a recording would use (nil: the first one; "test": none needed).
    public var device: String?
    /// `--size` and `--fps`, as a recording would ask.
    public var size: FrameSize?
    public var rate: FrameRateValue?
    /// `--segment`: the length of each movie, for the FAT file-size check.
    public var segment: TimeSpec?
    /// Where recordings will go: a folder or an OUTPUT path.
    public var output: String

    public init(device: String? = nil, size: FrameSize? = nil, rate: FrameRateValue? = nil, segment: TimeSpec? = nil,
                output: String = ".") {
        self.device = device
        self.size = size
        self.rate = rate
        self.segment = segment
        self.output = output
    }

    /// A look at what a recording from `camera` into `output` (nil: the current folder)
    /// with `--segment` (as given; nil: not given) needs. Every refusal is a usage error.
    public static func parse(camera: CameraRequest, segment: String?, output: String?) throws(CamrecError) -> DoctorRequest {
        let length = try OptionValue.parse("--segment", segment) { (text: String) throws(ValueError) -> TimeSpec in
            let length = try TimeSpec.parse(text)
            guard length.nanoseconds > 0 else { throw ValueError("a segment must be longer than 0, e.g. 10m") }
            return length
        }
        return DoctorRequest(device: camera.device, size: camera.size, rate: camera.rate, segment: length, output: output ?? ".")
    }
}

/// `camrec doctor`: checks what a recording needs, in order (GStreamer, its plugins by
/// Debian package, cameras, sound sources, hardware encoders, the output folder, unfinished
/// recordings in it), each with the one line that fixes it. Changes nothing.
public enum Doctor {
    public static func examine(_ request: DoctorRequest) -> DoctorReport {
        var checks: [DoctorCheck] = []
        let gstreamer = PluginChecks.gstreamer()
        checks.append(gstreamer)
        let usable = gstreamer.status != .problem
        if usable {
            checks += PluginChecks.packageChecks()
            checks.append(PluginChecks.serveCheck())
            checks.append(TextChecks.check())
        }
        let cameras = CameraChecks.run(device: request.device, size: request.size, rate: request.rate)
        checks += cameras.checks
        if usable {
            checks += SoundChecks.checks(SoundChecks.look(exists: PluginChecks.elementExists))
            checks += PluginChecks.encoderChecks()
        }
        checks += OutputChecks.run(.init(output: request.output, size: cameras.size, rate: cameras.rate,
                                         segment: request.segment))
        return DoctorReport(checks: checks)
    }
}

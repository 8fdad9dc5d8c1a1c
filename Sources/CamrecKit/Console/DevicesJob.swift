/// One `camrec devices`: the cameras (by camrec's own V4L2 probing) and the sound sources,
/// listed for people or as one JSON document; or, with `check`, only whether a camera
/// that can capture exists.
public struct DevicesJob: Sendable {
    /// `--check`: print nothing; the exit status says whether a camera can capture.
    public var check = false
    /// `--json`: one JSON document on stdout.
    public var json = false
    /// `--controls`: each camera's controls too (always in JSON).
    public var controls = false

    /// A listing as `check`, `json` and `controls` ask.
    public init(check: Bool, json: Bool, controls: Bool) {
        self.check = check
        self.json = json
        self.controls = controls
    }

    /// Lists on stdout, says on `errors` why a camera is missing or unusable; the exit
    /// status is that of the first such problem.
    public func run(errors: Console) -> ExitStatus {
        let catalog = CameraCatalog.scan()
        if check { return catalog.error?.status ?? .success }
        // Listings on stdout; why a camera is missing or unusable on stderr, as camrec's
        // other commands say it (the JSON document also lists it under "problems").
        let sound = SoundCatalog.scan().attaching(cameras: catalog.microphoneCameras())
        if json {
            print(catalog.jsonText(sound: sound))
        } else {
            print(catalog.humanText(showControls: controls, sound: sound), terminator: "")
        }
        if let error = catalog.error { errors.fail(error) }
        for warning in catalog.warnings { errors.say("camrec: warning: \(warning)") }
        return catalog.error?.status ?? .success
    }
}

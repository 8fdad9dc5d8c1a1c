import Dispatch

extension ControlAnswers {
    /// How long `ctl text` waits for its reading: the reader runs at the lowest priority,
    /// so a busy machine makes it slow.
    static let textTimeout: DispatchTimeInterval = .seconds(60)

    /// `text`: every camera reads the text of its next frame. One camera: the reply is its
    /// reading (as its `text` line); several: the first camera's, with `cameras`, every
    /// camera's reading.
    static func text(_ run: some ControlledRun) -> String {
        let recorders = run.cameraRecorders
        guard recorders.contains(where: { $0.config.text != nil }) else {
            return ControlReply.error("this recording reads no text: start camrec with --text or --text-every T")
        }
        let answers: CameraAnswers<TextResult> = askEveryCamera(
            recorders, timeout: textTimeout, late: "the text is taking longer than 60 s to read"
        ) { recorder, done in recorder.requestText(completion: done) }
        guard answers.asked else { return ControlReply.error("the recording is not running") }
        let readings = answers.values.map(\.value)
        guard let first = readings.first else { return ControlReply.error(answers.errors.joined(separator: "; ")) }
        guard recorders.count > 1 else { return ControlReply.success(first) }
        return ControlReply.success(CamerasReply(first: first, cameras: readings))
    }
}

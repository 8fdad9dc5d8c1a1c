import Dispatch
import Synchronization

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
        let waits = recorders.map { recorder -> (TextOutcome, DispatchSemaphore)? in
            let (outcome, done) = (TextOutcome(), DispatchSemaphore(value: 0))
            let asked = recorder.requestText { result in
                outcome.value.withLock { $0 = result }
                done.signal()
            }
            return asked ? (outcome, done) : nil
        }
        guard waits.contains(where: { $0 != nil }) else { return ControlReply.error("the recording is not running") }
        var readings: [TextResult] = []
        var errors: [String] = []
        for (index, waiting) in waits.enumerated() {
            guard let (outcome, done) = waiting else { continue }
            let name = recorders.count == 1 ? "" : "camera \(index + 1) (\(recorders[index].config.source.deviceName)): "
            guard done.wait(timeout: .now() + textTimeout) == .success, let result = outcome.value.withLock({ $0 }) else {
                errors.append(name + "the text is taking longer than 60 s to read")
                continue
            }
            switch result {
            case .success(let reading): readings.append(reading)
            case .failure(let error): errors.append(name + error.message)
            }
        }
        guard let first = readings.first else { return ControlReply.error(errors.joined(separator: "; ")) }
        guard recorders.count > 1 else { return ControlReply.success(first) }
        return ControlReply.success(TextsReply(first: first, cameras: readings))
    }

    /// Hands a reading from the reader's thread to the control thread.
    private final class TextOutcome: Sendable {
        let value = Mutex<Result<TextResult, CamrecError>?>(nil)
    }

    /// The first camera's reading, its fields at the top level, and every camera's in `cameras`.
    private struct TextsReply: Encodable {
        let first: TextResult
        let cameras: [TextResult]

        enum Key: String, CodingKey { case cameras }

        func encode(to encoder: any Encoder) throws {
            try first.encode(to: encoder)
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(cameras, forKey: .cameras)
        }
    }
}

import Dispatch
import Synchronization

extension ControlAnswers {
    /// What every camera answered to a request that completes later (`ctl still`, `ctl text`).
    struct CameraAnswers<Value: Sendable> {
        /// The answers, in camera order, with the camera's index.
        var values: [(camera: Int, value: Value)] = []
        /// For each camera that failed or was late: what went wrong, naming the camera when
        /// there are several ("camera 2 (/dev/video2): …").
        var errors: [String] = []
        /// Whether any camera took the request (none: the recording is not running).
        var asked = false
    }

    /// Asks every camera at once (`ask` is false when a camera cannot take the request) and
    /// waits up to `timeout` for each answer; `late` says what a late one was doing.
    static func askEveryCamera<Value: Sendable>(
        _ recorders: [Recorder], timeout: DispatchTimeInterval, late: String,
        _ ask: (Recorder, @escaping @Sendable (Result<Value, CamrecError>) -> Void) -> Bool
    ) -> CameraAnswers<Value> {
        let waits = recorders.map { recorder -> (HandOver<Value>, DispatchSemaphore)? in
            let (handOver, done) = (HandOver<Value>(), DispatchSemaphore(value: 0))
            let asked = ask(recorder) { result in
                handOver.value.withLock { $0 = result }
                done.signal()
            }
            return asked ? (handOver, done) : nil
        }
        var answers = CameraAnswers<Value>()
        answers.asked = waits.contains { $0 != nil }
        for (index, waiting) in waits.enumerated() {
            guard let (handOver, done) = waiting else { continue }
            let name = recorders.count == 1 ? "" : "camera \(index + 1) (\(recorders[index].config.source.deviceName)): "
            guard done.wait(timeout: .now() + timeout) == .success, let result = handOver.value.withLock({ $0 }) else {
                answers.errors.append(name + late)
                continue
            }
            switch result {
            case .success(let value): answers.values.append((index, value))
            case .failure(let error): answers.errors.append(name + error.message)
            }
        }
        return answers
    }

    /// Hands an answer from the thread that made it to the control thread.
    private final class HandOver<Value: Sendable>: Sendable {
        let value = Mutex<Result<Value, CamrecError>?>(nil)
    }

    /// The first camera's answer, its fields at the top level, and every camera's in `cameras`.
    struct CamerasReply<Item: Encodable>: Encodable {
        let first: Item
        let cameras: [Item]

        enum Key: String, CodingKey { case cameras }

        func encode(to encoder: any Encoder) throws {
            try first.encode(to: encoder)
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(cameras, forKey: .cameras)
        }
    }
}

import Foundation

/// Waits on a running recording through its control socket (`--control PATH`), so that a
/// test acts once camrec has really recorded something, never after a sleep that a
/// loaded machine can outlast.
enum RecordingWait {
    /// The recording's status (`camrec ctl PATH status`), or nil when nobody answers yet.
    static func status(socket: String) -> [String: Any]? {
        guard let reply = try? CamrecBinary.run(["ctl", socket, "status"], timeout: 30), reply.status == 0 else { return nil }
        return (try? JSONSerialization.jsonObject(with: reply.stdout)) as? [String: Any]
    }

    /// The frames the recording behind `socket` has let into the movie so far, or nil when
    /// nobody answers.
    static func currentFrames(socket: String) -> Int? {
        status(socket: socket)?["frames"] as? Int
    }

    /// Waits until the recording behind `socket` has let `frames` frames into the movie.
    /// False after `timeout` (generous: a loaded 2-core machine is slow, never this slow).
    static func frames(_ frames: Int, socket: String, timeout: TimeInterval = 60) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let count = currentFrames(socket: socket), count >= frames { return true }
            Thread.sleep(forTimeInterval: 0.1)
        }
        return false
    }

    /// Asks the recording behind `socket` to stop (`camrec ctl PATH stop`); true when it
    /// accepted.
    @discardableResult
    static func stop(socket: String) -> Bool {
        (try? CamrecBinary.run(["ctl", socket, "stop"], timeout: 30))?.status == 0
    }
}

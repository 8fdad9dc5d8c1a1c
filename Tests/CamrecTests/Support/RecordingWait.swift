import Foundation

/// Waits on a running recording through its control socket (`--control PATH`), so that a
/// test acts once camrec has really recorded something, never after a sleep that a
/// loaded machine can outlast.
enum RecordingWait {
    /// The recording's status (`camrec ctl PATH status`), or nil when nobody answers yet.
    static func status(socket: String) -> [String: Any]? {
        guard let reply = try? CamrecBinary.run(["ctl", socket, "status"], timeout: 20), reply.status == 0 else { return nil }
        return (try? JSONSerialization.jsonObject(with: reply.stdout)) as? [String: Any]
    }

    /// Waits until the recording behind `socket` has let `frames` frames into the movie.
    /// False after `timeout` (generous: a loaded 2-core machine is slow, never this slow).
    static func frames(_ frames: Int, socket: String, timeout: TimeInterval = 60) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let count = status(socket: socket)?["frames"] as? Int, count >= frames { return true }
            Thread.sleep(forTimeInterval: 0.1)
        }
        return false
    }
}

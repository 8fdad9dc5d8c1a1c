/// Shows recording events: JSON lines for scripts, short lines and a progress display for people.
public struct RecordingPrinter: Sendable {
    /// Where the lines go.
    public let console: Console

    /// Shows events on `console`.
    public init(console: Console) {
        self.console = console
    }

    /// One event: its JSON line (with `--json`) and its line for people (a progress line on a terminal).
    public func show(_ event: RecordingEvent) {
        switch event {
        case .started(let start):
            console.emit(start, type: "started")
            var limit = start.maxDuration.map { " for up to " + limitTime($0) } ?? " until stopped"
            if let end = start.windowEnd {
                limit = " until the window's end, \(Self.civil(end))" + (start.maxDuration.map { " (at most " + limitTime($0) + ")" } ?? "")
            }
            let from = start.device == "test" ? "the test pattern"
                : start.format == "movie" ? "the movie " + start.device.dropFirst(MovieSource.prefix.count) : "\(start.device) (\(start.format))"
            if start.standby == true {
                console.say("camrec: standby on \(from) at \(start.size) \(start.fps) fps: no movie, clips on triggers (named after \(start.path))\(limit)")
            } else {
                console.say("camrec: recording \(from) at \(start.size) \(start.fps) fps to \(start.path)\(limit)")
            }
            for camera in (start.cameras ?? []).dropFirst() {
                // Standby writes no movie: the path only names the camera's clips.
                let into = start.standby == true ? "clips named after \(camera.path)" : "to \(camera.path)"
                console.say("camrec: and camera \(camera.index), \(camera.device) (\(camera.format)) at \(camera.size) \(into), on the same clock")
            }
            if let reason = start.formatReason { console.say("camrec: format: \(reason)") }
            var encoding = start.encodingReason
            if let bitrate = start.bitrate { encoding += "; \(bitrate) kbit/s" }
            if let interval = start.keyframeInterval { encoding += String(cFormat: "; a keyframe every %g s", interval) }
            console.say("camrec: encoding: \(encoding)")
            if let lapse = start.timelapse {
                console.say(String(cFormat: "camrec: time-lapse: one frame every %g s of capture time, played %g times as fast", lapse.interval, lapse.speedup))
            }
            if let audio = start.audio {
                let channels = audio.channels == 1 ? "mono" : audio.channels == 2 ? "stereo" : "\(audio.channels) channels"
                console.say("camrec: sound: \(audio.reason); \(audio.codec == "aac" ? "AAC" : "Opus") (\(audio.encoder)) \(channels) "
                    + "at \(audio.rate) Hz, \(audio.bitrate) kbit/s")
            }
            if let controls = start.controls {
                console.say("camrec: controls: " + controls.map { "\($0.name)=\($0.value)" }.joined(separator: ", "))
            }
        case .progress(let progress):
            let limit = progress.limit.map { " / " + limitTime($0) } ?? ""
            console.progress(clockTime(progress.seconds) + limit + "  " + humanBytes(progress.bytes)
                             + String(cFormat: "  %.1f fps", progress.fps))
        case .still(let file):
            console.emit(file, type: "still")
            let at = file.pts.map { String(cFormat: " (movie time %.3f s)", $0) } ?? ""
            console.say("camrec: still \(file.path)\(at)")
        case .warning(let message):
            console.emit(WarningLine(message: message), type: "warning")
            console.say("camrec: warning: \(message)")
        case .stopping(let reason):
            console.say("camrec: stopping (\(reason.rawValue)): finalising the file")
        case .segment(let file):
            console.emit(file, type: "segment")
            let number = file.index.map { "segment \($0)" } ?? "segment"
            console.say("camrec: \(number) saved: \(file.path) (\(counted(file.frames ?? 0, "frame")), "
                + String(cFormat: "%.2f s, ", file.duration ?? 0) + humanBytes(file.bytes) + ")")
        case .clip(let file):
            console.emit(file, type: "clip")
            let short = file.preRollShort == true ? "; the pre-roll was shorter than asked" : ""
            console.say("camrec: clip \(file.index ?? 0) saved: \(file.path) (\(counted(file.frames ?? 0, "frame")), "
                + String(cFormat: "%.2f s, ", file.duration ?? 0) + humanBytes(file.bytes) + short + ")")
        case .clipStarted(let line):
            console.emit(line, type: "clip-started")
            console.say("camrec: clip \(line.clip) started" + String(cFormat: " at %.2f s", line.time) + ": \(line.path)")
        case .diskLow(let line):
            // People read the warning that comes with it.
            console.emit(line, type: "disk-low")
        case .sound(let line):
            console.emit(line, type: "sound")
            console.say("camrec: sound at " + String(cFormat: "%.2f s (%.1f dBFS)", line.time, line.level)
                + (line.clip.map { ": clip \($0)" } ?? ""))
        case .motion(let line):
            console.emit(line, type: "motion")
            console.say("camrec: motion at " + String(cFormat: "%.2f s (%.1f%% of the picture)", line.time, line.area * 100)
                + (line.clip.map { ": clip \($0)" } ?? ""))
        case .text(let result):
            console.emit(result, type: "text")
            let found = result.text.isEmpty ? "no text" : "\"" + result.text.split(separator: "\n").joined(separator: " / ") + "\""
            if let sidecar = result.textFile {
                console.say("camrec: \(result.input) reads \(found) (\(sidecar))")
            } else {
                console.say("camrec: text" + (result.time.map { String(cFormat: " at %.3f s", $0) } ?? "") + ": " + found)
            }
        case .deleted(let file):
            console.emit(file, type: "deleted")
            console.say("camrec: deleted \(file.path) (\(humanBytes(file.bytes)), --\(file.rule.rawValue))")
        case .cameraLost(let message, let camera):
            console.emit(CameraLostLine(message: message, device: camera?.device, camera: camera?.index), type: "camera-lost")
            console.say("camrec: \(message): waiting for the camera to come back")
        case .cameraBack(let device, let gap, let camera):
            console.emit(CameraBackLine(device: device, gap: gap, camera: camera?.index), type: "camera-back")
            let which = camera.map { "camera \($0.index) (\($0.device)) back at " } ?? "camera back at "
            console.say("camrec: \(which)\(device)" + String(cFormat: " after %.1f s: recording goes on", gap))
        case .schedule(let line):
            console.emit(line, type: "schedule")
            let end = line.end.split(separator: "T").last.map { String($0.prefix(8)) } ?? line.end
            switch line.state {
            case .waiting:
                console.say("camrec: schedule: the camera is closed until the next window, \(Self.civil(line.start)) to \(end)")
            case .recording:
                console.say("camrec: schedule: recording the window \(Self.civil(line.start)) to \(end)")
            }
        case .settled(let outcome):
            console.emit(SettledLine(settleMs: outcome.milliseconds, stable: outcome.stable, frames: outcome.frames,
                                     device: outcome.device, camera: outcome.camera), type: "settled")
            let how = outcome.stable ? "picture settled" : "picture not settled within --settle"
            let which = outcome.device.map { "camera \(outcome.camera ?? 0) (\($0)): " } ?? ""
            let then = outcome.device == nil ? "recording starts" : "its movie starts with the others'"
            console.say("camrec: \(which)\(how)" + String(cFormat: " after %.2f s (%ld frames not recorded): ",
                                                           Double(outcome.milliseconds) / 1000, outcome.frames) + then)
        }
    }

    /// An ISO 8601 time as people read it: `2026-12-04 07:30:00 +01:00`.
    static func civil(_ iso: String) -> String {
        var text = iso.replacing("T", with: " ")
        if let dot = text.firstIndex(of: ".") {
            let zone = text[dot...].drop(while: { $0 == "." || $0.isNumber })
            text = String(text[..<dot]) + " " + (zone == "Z" ? "UTC" : zone)
        }
        return text
    }

    /// How a file's `--on-file` (or an event's `--on-event`) command ended: its `hook` line, and a line for people when
    /// it failed (a success is said only in JSON: a still a second would flood stderr).
    public func show(_ hook: HookLine) {
        console.emit(hook, type: "hook")
        guard !hook.succeeded else { return }
        let how: String
        if let error = hook.error {
            how = error
        } else if hook.timedOut {
            how = String(cFormat: "stopped after %.1f s (", hook.duration) + (hook.file == nil ? "--on-event-timeout)" : "--on-file-timeout)")
        } else if let signal = hook.signal {
            how = "killed by signal \(signal)"
        } else {
            how = "exit status \(hook.exitStatus ?? -1)"
        }
        let said = hook.stderr.map { ": " + ($0.split(separator: "\n").last.map(String.init) ?? $0) } ?? ""
        let what = hook.file.map { "--on-file command for \($0)" } ?? "--on-event command for \(hook.event ?? "an event")"
        console.say("camrec: \(what) failed (\(how))\(said)")
    }

    /// An event of a run without a movie (`camrec still`, `camrec preview`): a still has no
    /// movie time, so its line gives its size instead.
    public func showWithoutMovie(_ event: RecordingEvent) {
        guard case .still(let file) = event else { return show(event) }
        console.emit(file, type: "still")
        console.say("camrec: still \(file.path) (\(humanBytes(file.bytes)))")
    }

    /// The run's result: its JSON line, and a summary for people.
    /// `camrec react --separate`: where the video starts in the camera's movie.
    public func show(_ line: ReactLine) {
        console.emit(line, type: "react")
        console.say("camrec: the video \(line.video) starts at " + String(cFormat: "%.3f s", line.offset) + " of \(line.path)")
    }

    public func show(_ result: RecordingResult) {
        console.emit(result, type: "result")
        let segments = result.files.filter { $0.kind == "movie" && $0.index != nil }
        if !segments.isEmpty {
            // Each was reported as it was saved; sum them up.
            let frames = segments.compactMap(\.frames).reduce(0, +)
            let seconds = segments.compactMap(\.duration).reduce(0, +)
            console.say("camrec: " + counted(segments.count, "movie") + " kept (" + counted(frames, "frame") + ", "
                + String(cFormat: "%.2f s, ", seconds) + humanBytes(segments.map(\.bytes).reduce(0, +)) + ")")
        }
        for file in result.files where file.kind == "movie" && file.index == nil {
            let frames = file.frames.map { counted($0, "frame") + ", " } ?? ""
            let duration = file.duration.map { String(cFormat: "%.2f s, ", $0) } ?? ""
            console.say("camrec: saved \(file.path) (\(frames)\(duration)\(humanBytes(file.bytes)))")
        }
        let clips = result.files.filter { $0.kind == "clip" }.count
        if clips > 0 { console.say("camrec: " + counted(clips, "clip") + " saved") }
        let stills = result.files.filter { $0.kind == "still" }.count
        if stills > 0 { console.say("camrec: " + counted(stills, "still") + " taken") }
        if let message = result.message { console.say("camrec: \(message)") }
        if let lost = result.lostMovies, !lost.isEmpty {
            console.say("camrec: " + counted(lost.count, "movie") + " lost (its file was removed or replaced while it was written): "
                        + lost.joined(separator: ", "))
        }
        if result.droppedFrames > 0 { console.say("camrec: " + counted(Int(result.droppedFrames), "frame") + " dropped") }
        if let lost = result.droppedAudioMs, lost > 0 {
            console.say("camrec: \(lost) ms of sound lost by the source, recorded as silence so that the sound stays in step")
        }
    }
}

/// The JSON `camera-back` line.
struct CameraBackLine: Encodable {
    let device: String
    /// Seconds without the camera.
    let gap: Double
    /// Several cameras: the camera's number in the run (1 for the first `--device`).
    let camera: Int?
}

/// The JSON `camera-lost` line.
struct CameraLostLine: Encodable {
    let message: String
    /// Several cameras: the lost camera's device (as the run's files name it) and number.
    let device: String?
    let camera: Int?
}

/// The JSON `settled` line (`--settle`).
struct SettledLine: Encodable {
    /// Camera time from the first frame to the first recorded one.
    let settleMs: Int
    /// False when the limit came first.
    let stable: Bool
    /// Frames held back.
    let frames: Int
    /// Several cameras: the camera that settled, and its number in the run.
    let device: String?
    let camera: Int?
}

/// The JSON `warning` line.
struct WarningLine: Encodable {
    let message: String
}

import Foundation

/// A/V sync measured in a movie, with ffprobe and ffmpeg only (independent of every recorder).
///
/// The emulated camera flashes its picture (VirtualCamera `flash=PERIOD`) and `ClickPlayer`
/// clicks into the test sound server at the same CLOCK_MONOTONIC instants; a recorder records
/// both. In the file:
/// - a **flash** is the first frame of a run of frames whose mean luma is well above the
///   movie's median (the flash frame is white below the stamp band), at its PTS
///   (ffprobe's best-effort timestamp, the demuxer's edit list applied);
/// - a **click** is the first sample above 0.35 of the track's peak after 100 ms of quiet,
///   at the PTS of its decoded audio frame plus its index in that frame / the sample rate
///   (the encoder's priming removed as ffprobe and ffmpeg remove it: MP4 edit lists, Opus
///   pre-skip);
/// - each click is paired with the nearest flash (when nearer than `maxPair`): the
///   **offset** is click − flash in seconds, positive when the sound is late.
///
/// bench/benchlib/avsync.py makes the same measurement for the benchmarks.
enum AVSync {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// What one movie holds.
    struct Measurement: Sendable, CustomStringConvertible {
        /// The PTS of the first frame of each flash, seconds, in order.
        var flashes: [Double]
        /// The time of each click's first sample, seconds, in order.
        var clicks: [Double]
        /// Click − nearest flash, seconds, for the clicks that have a flash within `maxPair`,
        /// in click order.
        var offsets: [Double]

        /// The offsets with the camera's flash phase added back (see `flashPhases`): the
        /// recorder's own error, positive when the sound is late. The phase is the same for
        /// every flash of a stream (the camera's frames step by a fixed interval); nil when
        /// `phases` is empty or spread over more than a millisecond (the stream restarted).
        func offsets(lessPhase phases: [Double]) -> [Double]? {
            guard let low = phases.min(), let high = phases.max(), high - low <= 0.001 else { return nil }
            let phase = phases.reduce(0, +) / Double(phases.count)
            return offsets.map { $0 + phase }
        }

        /// The offset at the first paired click.
        var first: Double? { offsets.first }
        /// The offset at the last paired click.
        var last: Double? { offsets.last }

        var description: String {
            func ms(_ values: [Double]) -> String { values.map { String(format: "%.1f", $0 * 1000) }.joined(separator: " ") }
            func s(_ values: [Double]) -> String { values.map { String(format: "%.4f", $0) }.joined(separator: " ") }
            return "flashes [\(s(flashes))] s, clicks [\(s(clicks))] s, offsets [\(ms(offsets))] ms"
        }
    }

    /// Flashes, clicks and offsets of the movie at `path` (video stream 0, audio stream 0).
    static func measure(_ path: String, maxPair: Double = 0.5) throws -> Measurement {
        let flashes = try flashTimes(path), clicks = try clickTimes(path)
        var offsets: [Double] = []
        for click in clicks {
            guard let nearest = flashes.min(by: { abs(click - $0) < abs(click - $1) }),
                  abs(click - nearest) <= maxPair else { continue }
            offsets.append(click - nearest)
        }
        return Measurement(flashes: flashes, clicks: clicks, offsets: offsets)
    }

    /// How long after its instant k·PERIOD each flash frame was captured: the capture
    /// time of every frame that `trace=frames` marks ` flash`
    /// (`camrec VirtualCamera: /dev/video0: frame 60 at 41200.016700 flash`) minus the
    /// multiple of `period` it flashes for, in order.
    ///
    /// The camera flashes the first frame at or after each instant, so a flash frame lags
    /// its click by this phase, anywhere in [0, one frame interval): the raw offset
    /// (click − flash) is the recorder's error minus the phase. Subtracting it
    /// (`Measurement.offsets(lessPhase:)`) leaves the recorder's error alone, which a test can
    /// bound tightly whatever the camera's frame grid happened to be.
    static func flashPhases(_ stderr: String, period: Double) -> [Double] {
        stderr.split(separator: "\n").compactMap { line in
            let words = line.split(separator: " ")
            guard words.count == 8, words[0] == "camrec", words[1] == "VirtualCamera:", words[3] == "frame",
                  words[5] == "at", words[7] == "flash", let time = Double(words[6]) else { return nil }
            return time - (time / period).rounded(.down) * period
        }
    }

    /// The PTS (seconds) of the first frame of each flash.
    static func flashTimes(_ path: String) throws -> [Double] {
        let frames = try probeFrames(path, stream: "v:0", entries: "best_effort_timestamp_time")
        let times = frames.map { time($0["best_effort_timestamp_time"]) }
        let width = 64, height = 48
        let decoded = try tool("ffmpeg", ["-nostdin", "-v", "error", "-i", path, "-map", "0:v:0",
                                          "-vf", "scale=\(width):\(height),format=gray", "-fps_mode", "passthrough",
                                          "-f", "rawvideo", "-"])
        let size = width * height
        let means: [Double] = decoded.withUnsafeBytes { raw in
            stride(from: 0, through: raw.count - size, by: size).map { start in
                Double(raw[start..<start + size].reduce(0) { $0 + Int($1) }) / Double(size)
            }
        }
        guard means.count == times.count else {
            throw Failure(description: "\(path): ffmpeg decoded \(means.count) frames, ffprobe listed \(times.count)")
        }
        guard let top = means.max() else { return [] }
        let median = means.sorted()[means.count / 2]
        guard top - median >= 40 else { return [] }
        let threshold = (median + top) / 2
        var flashes: [Double] = [], before = false
        for (t, mean) in zip(times, means) {
            let bright = mean > threshold
            if bright, !before, let t { flashes.append(t) }
            before = bright
        }
        return flashes
    }

    /// The time (seconds) of each click's first sample.
    static func clickTimes(_ path: String, quiet: Double = 0.1) throws -> [Double] {
        let frames = try probeFrames(path, stream: "a:0", entries: "best_effort_timestamp_time,nb_samples")
        let streams = try probe(path, stream: "a:0", entries: "stream=sample_rate")["streams"] as? [[String: Any]]
        guard let rate = (streams?.first?["sample_rate"] as? String).flatMap(Double.init) ?? streams?.first?["sample_rate"] as? Double,
              rate > 0 else { throw Failure(description: "\(path): no audio sample rate") }
        let decoded = try tool("ffmpeg", ["-nostdin", "-v", "error", "-i", path, "-map", "0:a:0", "-ac", "1",
                                          "-c:a", "pcm_f32le", "-f", "f32le", "-"])
        let samples: [Float] = decoded.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        let counts = frames.map { ($0["nb_samples"] as? Int) ?? Int(($0["nb_samples"] as? String) ?? "") ?? 0 }
        guard counts.reduce(0, +) == samples.count else {
            throw Failure(description: "\(path): ffmpeg decoded \(samples.count) samples, ffprobe listed \(counts.reduce(0, +))")
        }
        guard let peak = samples.map(abs).max(), peak > 0 else { return [] }
        let threshold = max(0.35 * peak, 0.05)
        var clicks: [Double] = [], lastLoud: Double? = nil, index = 0
        for (frame, count) in zip(frames, counts) {
            defer { index += count }
            guard let pts = time(frame["best_effort_timestamp_time"]) else { continue }
            for i in 0..<count where abs(samples[index + i]) > threshold {
                let t = pts + Double(i) / rate
                if lastLoud.map({ t - $0 >= quiet }) ?? true { clicks.append(t) }
                lastLoud = t
            }
        }
        return clicks
    }

    // MARK: tools

    private static func time(_ value: Any?) -> Double? {
        if let text = value as? String { return Double(text) }
        return value as? Double
    }

    private static func probe(_ path: String, stream: String, entries: String) throws -> [String: Any] {
        let data = try tool("ffprobe", ["-v", "error", "-select_streams", stream, "-show_entries", entries, "-of", "json", path])
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw Failure(description: "\(path): ffprobe's answer is not JSON")
        }
        return object
    }

    private static func probeFrames(_ path: String, stream: String, entries: String) throws -> [[String: Any]] {
        let object = try tool("ffprobe", ["-v", "error", "-select_streams", stream, "-show_frames",
                                          "-show_entries", "frame=\(entries)", "-of", "json", path])
        guard let json = try JSONSerialization.jsonObject(with: object) as? [String: Any] else {
            throw Failure(description: "\(path): ffprobe's answer is not JSON")
        }
        return json["frames"] as? [[String: Any]] ?? []
    }

    private static func tool(_ name: String, _ arguments: [String]) throws -> Data {
        let result = try ChildProcess.run(name, arguments, timeout: 120)
        guard result.status == 0, !result.timedOut else {
            throw Failure(description: "\(name) \(arguments.joined(separator: " ")) failed: \(result.stderr.suffix(400))")
        }
        return result.stdout
    }
}

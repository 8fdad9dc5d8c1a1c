import FoundationEssentials
import GStreamer
#if canImport(Glibc)
import Glibc
#endif

/// Event clips of a running recording (issue 16): keeps the pre-roll of the encoded stream
/// (fed by the appsink "clipfeed" after the encoder, on its own queue's thread), starts a
/// clip on a trigger with the pre-roll's packets, feeds it live packets until
/// `ClipSchedule` says it ends, then finishes it on a thread of its own: the file is
/// finalised, cut to start exactly at trigger − pre-roll (`Trimmer`: the frames between
/// the keyframe it had to start from and the start are hidden or re-encoded), and moved
/// to `NAME-clip-0001.EXT`. Nothing here ever blocks the movie's branch.
final class ClipRecorder: @unchecked Sendable {
    private struct Active {
        var writer: ClipWriter
        var number: Int
        /// Where it goes once complete.
        var final: String
        var isShort: Bool
        /// Whether a Live Photo still of the first trigger's frame goes with it.
        var hasStill: Bool
    }

    private let settings: ClipSettings
    private let naming: SegmentNaming
    private let muxer: String
    private let frameDuration: UInt64
    private let events: @Sendable (RecordingEvent) -> Void
    private let condition = ThreadCondition()
    // Guarded by `condition`.
    private var preRoll: PreRoll<ClipPacket>
    /// The sound's pre-roll (every packet decodes on its own), when the recording has sound.
    private var soundPreRoll: PreRoll<ClipPacket>
    private var soundCaps: Caps?
    /// Whether the recording has sound (`attachSound` was called).
    private var hasSound = false
    /// Clips whose picture has ended, waiting for the sound up to their end.
    private var soundClosing: [(writer: ClipWriter, end: UInt64)] = []
    private var schedule: ClipSchedule
    private var caps: Caps?
    private var newest: UInt64?
    /// The first packet's time: the movie's first frame (the feed comes after the gate).
    private var firstPTS: UInt64?
    private var active: Active?
    private var finishing = 0
    private var files: [ResultFile] = []
    private var lastNumber = 0
    private var ended = false
    private var feedEnded = false
    /// Live Photos: the still written for each clip number (nil: it failed).
    private var stills: [Int: String?] = [:]

    /// Clips beside `moviePath`, written with `muxer` (the movie's, gst-launch syntax);
    /// `clipsBefore` clips were made by the run's earlier pipelines (before a reconnect),
    /// so that numbers go on.
    /// `slack` (ns) keeps that much more pre-roll than asked, for triggers placed before
    /// the newest frame (several cameras: at the newest frame of any of them).
    init(settings: ClipSettings, moviePath: String, muxer: String, frameDuration: UInt64, clipsBefore: Int = 0,
         slack: UInt64 = 0, events: @escaping @Sendable (RecordingEvent) -> Void) {
        lastNumber = clipsBefore
        self.settings = settings
        naming = settings.naming(moviePath: moviePath)
        self.muxer = muxer
        self.frameDuration = frameDuration
        self.events = events
        // A frame more than asked: the frame nearest the start may begin up to half a frame before it.
        preRoll = PreRoll(length: UInt64(max(settings.preRoll.nanoseconds, 0)) + frameDuration + slack)
        // Sound reaches back to the video's first keyframe, which may be a GOP earlier.
        soundPreRoll = PreRoll(length: UInt64(max(settings.preRoll.nanoseconds, 0)) + 10_000_000_000)
        schedule = ClipSchedule(preRoll: UInt64(max(settings.preRoll.nanoseconds, 0)),
                                postRoll: UInt64(max(settings.postRoll.nanoseconds, 0)),
                                maxClip: UInt64(max(settings.maxClip.nanoseconds, 0)))
    }

    /// Feeds it from `sink` (the appsink "clipfeed").
    func attach(to sink: AppSink) -> AppSinkCallbacksToken {
        sink.setCallbacks(newSample: { [self] view in
            if let sample = view.pullSample() { receive(sample) }
            return .ok
        }, endOfStream: { [self] in
            condition.withLock {
                feedEnded = true
                condition.broadcast()
            }
        })
    }

    /// Feeds it the sound encoder's output from `sink` (the appsink "clipsound").
    func attachSound(to sink: AppSink) -> AppSinkCallbacksToken {
        condition.withLock { hasSound = true }
        return sink.setCallbacks(newSample: { [self] view in
            if let sample = view.pullSample() { receiveSound(sample) }
            return .ok
        }, endOfStream: { [self] in
            condition.withLock {
                for closing in soundClosing { closing.writer.endAudio() }
                soundClosing.removeAll()
            }
        })
    }

    /// One encoded sound packet: into the sound's pre-roll, the clip being written, and the
    /// clips whose picture has ended while their sound has not.
    private func receiveSound(_ sample: Sample) {
        guard let packet = ClipPacket(sample) else { return }
        let pts = packet.time
        condition.withLock {
            if soundCaps == nil { soundCaps = sample.caps }
            soundPreRoll.append(.init(pts: pts, duration: packet.buffer.duration ?? 0, isKeyframe: true,
                                      bytes: packet.buffer.size, payload: packet))
            // Sound past the clip's planned end waits in the pre-roll: a trigger may extend it.
            if let current = active, let end = schedule.current?.end, pts < end { current.writer.pushAudio(packet) }
            soundClosing.removeAll { closing in
                guard pts >= closing.end else {
                    closing.writer.pushAudio(packet)
                    return false
                }
                closing.writer.endAudio()
                return true
            }
        }
    }

    /// One encoded packet, in the order of the stream. Its bytes are copied before they are
    /// kept: they may live in a pool of a few buffers (a camera's own frames in passthrough,
    /// a hardware encoder's output) that a pre-roll holding them would starve. The copy
    /// costs the stream's bitrate in memcpy, a few MB a second at most.
    private func receive(_ sample: Sample) {
        guard let packet = ClipPacket(sample, copy: true) else { return }
        let (buffer, pts) = (packet.buffer, packet.time)
        condition.withLock {
            if caps == nil { caps = sample.caps }
            if firstPTS == nil { firstPTS = pts }
            newest = pts
            preRoll.append(.init(pts: pts, duration: buffer.duration ?? frameDuration, isKeyframe: buffer.isKeyframe,
                                 bytes: buffer.size, payload: packet))
            guard let current = active else { return }
            // Frames are taken to the nearest frame: one half a frame or less before the end
            // is not in the clip (camera timestamps jitter; the test pattern's are rounded).
            if let clip = schedule.frame(at: pts + frameDuration / 2) {
                finishLocked(current, clip: clip)
            } else {
                current.writer.push(packet)
            }
        }
    }

    /// What a trigger did, for the control socket's reply.
    enum TriggerOutcome: Equatable {
        /// A new clip, to be written to `path`.
        case started(path: String, number: Int)
        /// The clip being written now goes on to `end` (seconds of the run).
        case extended(path: String, number: Int)
    }

    /// A trigger now (at the newest encoded frame); `after` overrides the post-roll.
    /// A Live Photo's trigger is at its still's frame: `at` (the recording's running time)
    /// and `withStill` (the still is paired with the clip once `stillTaken` reports it).
    func trigger(at explicit: UInt64? = nil, after: TimeSpec? = nil, withStill: Bool = false) -> Result<TriggerOutcome, CamrecError> {
        condition.withLock { () -> Result<TriggerOutcome, CamrecError> in
            guard !ended else { return .failure(CamrecError(.usage, "no clip: the recording is ending")) }
            guard let newest, let caps, !hasSound || soundCaps != nil else {
                return .failure(CamrecError(.usage, "no clip: no frame has been recorded yet"))
            }
            let time = explicit ?? newest
            let postRoll = after.map { UInt64(max($0.nanoseconds, 0)) }
            switch schedule.trigger(at: time, after: postRoll) {
            case .extended(let clip):
                guard let current = active else { return .failure(CamrecError(.failure, "no clip is being written")) }
                // Sound that came past the old end and waited in the pre-roll goes in now.
                if current.writer.hasSound {
                    for packet in soundPreRoll.packets where packet.pts > current.writer.soundPushedUpTo && packet.pts < clip.end {
                        current.writer.pushAudio(packet.payload)
                    }
                }
                return .success(.extended(path: current.final, number: current.number))
            case .started(let clip):
                let kept = preRoll.clip(from: clip.start > frameDuration / 2 ? clip.start - frameDuration / 2 : 0)
                guard let first = kept.packets.first else {
                    _ = schedule.close(at: clip.start)
                    return .failure(CamrecError(.failure, "no clip: nothing decodable has been encoded yet"))
                }
                let (number, final) = nextName()
                let made = Result { () throws(CamrecError) -> ClipWriter in
                    try ClipWriter(path: Self.partialPath(final), chain: muxer, caps: caps, audioCaps: hasSound ? soundCaps : nil,
                                   base: first.pts)
                }
                guard case .success(let writer) = made else {
                    _ = schedule.close(at: clip.start)
                    if case .failure(let error) = made { return .failure(error) }
                    return .failure(CamrecError(.failure, "no clip"))
                }
                for packet in kept.packets { writer.push(packet.payload) }
                if writer.hasSound {
                    for packet in soundPreRoll.clip(from: first.pts).packets { writer.pushAudio(packet.payload) }
                }

                // Short: the first frame kept is later than the frame nearest the start.
                active = Active(writer: writer, number: number, final: final, isShort: first.pts > clip.start + frameDuration / 2,
                                hasStill: withStill)
                // With no post-roll, the clip may already be complete.
                if let done = schedule.frame(at: time + frameDuration / 2), let current = active {
                    finishLocked(current, clip: done)
                }
                return .success(.started(path: final, number: number))
            }
        }
    }

    /// Bytes the pre-roll holds now (for `ctl status`).
    var preRollBytes: Int { condition.withLock { preRoll.bytes + soundPreRoll.bytes } }

    /// The run ends: the clip being written ends with the last packet, and every clip
    /// still being finished is waited for (at most `seconds`). Returns the clips made.
    func finish(within seconds: Double = 60) -> [ResultFile] {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        return condition.withLock {
            // The feed's last packets come on its own thread: wait for its end (briefly).
            let feedDeadline = ContinuousClock.now + .seconds(2)
            while !feedEnded, ContinuousClock.now < feedDeadline { condition.wait(seconds: 0.05) }
            ended = true
            if let current = active, let clip = schedule.close(at: (newest ?? 0) + frameDuration) {
                finishLocked(current, clip: clip)
            }
            while finishing > 0, ContinuousClock.now < deadline { condition.wait(seconds: 0.1) }
            return files
        }
    }

    // MARK: Finishing a clip

    /// Hands the clip being written to a thread of its own (the lock is held).
    private func finishLocked(_ current: Active, clip: ClipSchedule.Clip) {
        active = nil
        finishing += 1
        // The sound goes on to the picture's end (it arrives on its own thread, maybe later).
        if current.writer.hasSound {
            if ended || clip.end <= soundPreRoll.packets.last.map({ $0.end }) ?? 0 {
                current.writer.endAudio()
            } else {
                soundClosing.append((current.writer, clip.end))
            }
        }
        NamedThread.start("camrec-clip") { [self] in
            let file = complete(current, clip: clip)
            if let file { events(.clip(file)) }
            condition.withLock {
                if let file { files.append(file) }
            }
            if file != nil { applyRetention() }
            condition.withLock {
                finishing -= 1
                condition.broadcast()
            }
        }
    }

    /// Finalises, cuts and moves one clip into place; nil (with a warning) when it could not.
    private func complete(_ current: Active, clip: ClipSchedule.Clip) -> ResultFile? {
        let writer = current.writer
        let final = current.final
        guard writer.finish() else {
            events(.warning("clip \(current.number) could not be finalised: kept as written at \(writer.path) (camrec recover finishes it)"))
            return nil
        }
        // The first frame asked for (the nearest to the start), in the written file, which
        // starts at the keyframe at or before it.
        let half = frameDuration / 2
        let wanted = clip.start > half ? clip.start - half : 0
        let offset = writer.times.first { writer.base + $0 >= wanted } ?? 0
        var file: ResultFile
        var reencoded = 0
        if offset > 0 {
            let request = TrimRequest(input: writer.path, start: TimeSpec(nanoseconds: Int64(offset)), mode: .accurate,
                                      destination: .path(final))
            do {
                let trimmed = try Trimmer.run(request)
                unlink(writer.path)
                file = ResultFile(path: final, kind: "clip", duration: trimmed.duration, frames: trimmed.frames, bytes: trimmed.bytes)
                reencoded = trimmed.framesReencoded
            } catch {
                events(.warning("clip \(current.number) starts at the keyframe before the time asked for: \(error.message)"))
                guard let moved = move(writer, to: final, frames: writer.packets) else { return nil }
                file = moved
            }
        } else {
            guard let moved = move(writer, to: final, frames: writer.packets) else { return nil }
            file = moved
        }
        let first = writer.base + offset
        file.index = current.number
        file.triggers = clip.triggers.map { Double(Int64($0) - Int64(first)) / 1e9 }
        // Where it starts in the movie (the run's recorded time, as stills say it).
        let movieStart = Double(first - min(first, firstPTSValue)) / 1e9
        file.pts = movieStart
        file.frame = Int((movieStart * 1e9 / Double(max(frameDuration, 1))).rounded())
        file.firstFrameTime = movieStart
        file.lastFrameTime = movieStart + Double(max((file.frames ?? 1) - 1, 0) * Int(frameDuration)) / 1e9
        file.preRollShort = current.isShort
        file.reencodedFrames = reencoded
        if let trigger = clip.triggers.first {
            file.triggerFrame = Int((Double(Int64(trigger) - Int64(first)) / Double(max(frameDuration, 1))).rounded())
        }
        if current.hasStill { file.still = awaitStill(forClip: current.number) }
        return file
    }

    private var firstPTSValue: UInt64 { condition.withLock { firstPTS ?? 0 } }

    /// The running time of the movie's first frame, once one was encoded.
    var firstFrameTime: UInt64? { condition.withLock { firstPTS } }

    /// The running time of the newest encoded frame; nil before the first.
    var newestFrameTime: UInt64? { condition.withLock { newest } }

    /// A Live Photo's still for clip `number` was written (or not).
    func stillTaken(forClip number: Int, _ result: Result<ResultFile, CamrecError>) {
        condition.withLock {
            if case .success(let file) = result { stills[number] = file.path } else { stills[number] = .some(nil) }
            condition.broadcast()
        }
    }

    /// Waits (at most 10 s) for clip `number`'s still; its path, nil when none was written.
    private func awaitStill(forClip number: Int) -> String? {
        let deadline = ContinuousClock.now + .seconds(10)
        return condition.withLock {
            while stills[number] == nil, ContinuousClock.now < deadline { condition.wait(seconds: 0.05) }
            return stills[number] ?? nil
        }
    }

    /// Moves the finalised file into place as it is, through the one publisher (flushed,
    /// never replacing a file that appeared meanwhile, FAT and exFAT included).
    private func move(_ writer: ClipWriter, to final: String, frames: Int) -> ResultFile? {
        do {
            try Destination.publish(writer.path, as: final, replace: false)
        } catch {
            events(.warning("clip kept at \(writer.path): \(error.message)"))
            return nil
        }
        var info = stat()
        let bytes = stat(final, &info) == 0 ? Int64(info.st_size) : 0
        return ResultFile(path: final, kind: "clip", duration: Double(UInt64(frames) * frameDuration) / 1e9,
                          frames: frames, bytes: bytes)
    }

    /// `--keep` and friends over the clips (one clip thread at a time: they finish in turn).
    private func applyRetention() {
        guard let policy = settings.retention else { return }
        retentionLock.withLock {
            let (deleted, stillShort) = RetentionKeeper(policy: policy, naming: naming).apply()
            for file in deleted {
                events(.deleted(file))
                condition.withLock { files.removeAll { $0.path == file.path } }
            }
            if stillShort {
                events(.warning("free space stays below --min-free with only the newest clip left: clips go on, but the disk is nearly full"))
            }
        }
    }

    private let retentionLock = ThreadCondition()

    // MARK: Names

    /// The next clip's number and name, a name whose final and partial files are both
    /// free: the counter moves on past taken names; a pattern without a counter (time
    /// fields only) gets `-2`, `-3`, … as segments do.
    private func nextName() -> (Int, String) {
        let number = lastNumber + 1
        lastNumber = number
        let date = Date()
        var counter = number
        var collision = 1
        while true {
            let path = naming.path(counter: counter, date: date, collision: collision)
            if access(path, F_OK) != 0, access(Self.partialPath(path), F_OK) != 0 { return (number, path) }
            if naming.hasCounter { counter += 1 } else { collision += 1 }
        }
    }

    private static func partialPath(_ final: String) -> String {
        let (stem, ext) = OutputFile.split(final)
        return stem + ".partial" + ext
    }
}

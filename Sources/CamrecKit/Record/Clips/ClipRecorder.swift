import FoundationEssentials
import GStreamer
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Event clips of a running recording (issue 16): keeps the pre-roll of the encoded stream
/// (fed by the appsink "clipfeed" after the encoder, on its own queue's thread), starts a
/// clip on a trigger with the pre-roll's packets, feeds it live packets until
/// `ClipSchedule` says it ends, then finishes it on a thread of its own: the file is
/// finalised, cut to start exactly at trigger − pre-roll (`Trimmer`: the frames between
/// the keyframe it had to start from and the start are hidden or re-encoded; with
/// `--clip-start keyframe` it starts at that keyframe, uncut), and moved to
/// `NAME-clip-0001.EXT`. Nothing here ever blocks the movie's branch.
final class ClipRecorder: Sendable {
    struct Active: Sendable {
        var writer: ClipWriter
        var number: Int
        /// Where it goes once complete.
        var final: String
        var isShort: Bool
        /// Whether a Live Photo still of the first trigger's frame goes with it.
        var hasStill: Bool
    }

    let settings: ClipSettings
    let naming: SegmentNaming
    private let muxer: String
    let frameDuration: UInt64
    let events: @Sendable (RecordingEvent) -> Void
    /// When the frame at a clip time was captured (wall clock), given the clips' first
    /// frame's time; nil when not known.
    private let captureTime: (@Sendable (_ time: UInt64, _ clipsFirst: UInt64) -> WallTime?)?
    /// The camera's name and place, written into each MP4/MOV clip with its capture time.
    private let tags: StillTags?

    /// What the feeds' threads, the triggers' callers and the clips' threads share.
    struct State: Sendable {
        var preRoll: PreRoll<ClipPacket>
        /// The sound's pre-roll (every packet decodes on its own), when the recording has sound.
        var soundPreRoll: PreRoll<ClipPacket>
        var soundCaps: Caps?
        /// Whether the recording has sound (`attachSound` was called).
        var hasSound = false
        /// Clips whose picture has ended, waiting for the sound up to their end.
        var soundClosing: [(writer: ClipWriter, end: UInt64)] = []
        var schedule: ClipSchedule
        var caps: Caps?
        var newest: UInt64?
        /// The first packet's time: the movie's first frame (the feed comes after the gate).
        var firstPTS: UInt64?
        var active: Active?
        var finishing = 0
        var files: [ResultFile] = []
        var lastNumber: Int
        var ended = false
        var feedEnded = false
        /// Live Photos: the still written for each clip number (nil: it failed).
        var stills: [Int: String?] = [:]
        /// Clips retention passed over because their `--on-file` command had them (warned once each).
        var waitedFor: Set<String> = []
    }

    let shared: Monitor<State>

    /// Clips beside `moviePath`, written with `muxer` (the movie's, gst-launch syntax);
    /// `clipsBefore` clips were made by the run's earlier pipelines (before a reconnect),
    /// so that numbers go on.
    /// `slack` (ns) keeps that much more pre-roll than asked, for triggers placed before
    /// the newest frame (several cameras: at the newest frame of any of them).
    init(settings: ClipSettings, moviePath: String, muxer: String, frameDuration: UInt64, clipsBefore: Int = 0,
         slack: UInt64 = 0, captureTime: (@Sendable (_ time: UInt64, _ clipsFirst: UInt64) -> WallTime?)? = nil,
         tags: StillTags? = nil, events: @escaping @Sendable (RecordingEvent) -> Void) {
        self.settings = settings
        self.captureTime = captureTime
        self.tags = tags
        naming = settings.naming(moviePath: moviePath)
        self.muxer = muxer
        self.frameDuration = frameDuration
        self.events = events
        shared = Monitor(State(
            // A frame more than asked: the frame nearest the start may begin up to half a frame before it.
            preRoll: PreRoll(length: UInt64(max(settings.preRoll.nanoseconds, 0)) + frameDuration + slack),
            // Sound reaches back to the video's first keyframe, which may be a GOP earlier.
            soundPreRoll: PreRoll(length: UInt64(max(settings.preRoll.nanoseconds, 0)) + 10_000_000_000),
            schedule: ClipSchedule(preRoll: UInt64(max(settings.preRoll.nanoseconds, 0)),
                                   postRoll: UInt64(max(settings.postRoll.nanoseconds, 0)),
                                   maxClip: UInt64(max(settings.maxClip.nanoseconds, 0))),
            lastNumber: clipsBefore
        ))
    }

    /// Feeds it from `sink` (the appsink "clipfeed").
    func attach(to sink: AppSink) -> AppSinkCallbacksToken {
        sink.setCallbacks(newSample: { [self] view in
            if let sample = view.pullSample() { receive(sample) }
            return .ok
        }, endOfStream: { [self] in
            shared.withLockWaking { $0.feedEnded = true }
        })
    }

    /// Feeds it the sound encoder's output from `sink` (the appsink "clipsound").
    func attachSound(to sink: AppSink) -> AppSinkCallbacksToken {
        shared.withLock { $0.hasSound = true }
        return sink.setCallbacks(newSample: { [self] view in
            if let sample = view.pullSample() { receiveSound(sample) }
            return .ok
        }, endOfStream: { [self] in
            shared.withLock { state in
                for closing in state.soundClosing { closing.writer.endAudio() }
                state.soundClosing.removeAll()
            }
        })
    }

    /// One encoded sound packet: into the sound's pre-roll, the clip being written, and the
    /// clips whose picture has ended while their sound has not.
    private func receiveSound(_ sample: Sample) {
        guard let packet = ClipPacket(sample) else { return }
        let pts = packet.time
        shared.withLock { state in
            if state.soundCaps == nil { state.soundCaps = sample.caps }
            state.soundPreRoll.append(.init(pts: pts, duration: packet.buffer.duration ?? 0, isKeyframe: true,
                                            bytes: packet.buffer.size, payload: packet))
            // Sound past the clip's planned end waits in the pre-roll: a trigger may extend it.
            if let current = state.active, let end = state.schedule.current?.end, pts < end { current.writer.pushAudio(packet) }
            state.soundClosing.removeAll { closing in
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
        shared.withLock { state in
            if state.caps == nil { state.caps = sample.caps }
            if state.firstPTS == nil { state.firstPTS = pts }
            state.newest = pts
            state.preRoll.append(.init(pts: pts, duration: buffer.duration ?? frameDuration, isKeyframe: buffer.isKeyframe,
                                       bytes: buffer.size, payload: packet))
            guard let current = state.active else { return }
            // Frames are taken to the nearest frame: one half a frame or less before the end
            // is not in the clip (camera timestamps jitter; the test pattern's are rounded).
            if let clip = state.schedule.frame(at: pts + frameDuration / 2) {
                finishLocked(current, clip: clip, in: &state)
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
        var started: ClipStartLine?
        let outcome = trigger(at: explicit, after: after, withStill: withStill, started: &started)
        // Said outside the lock: a reader of the events may ask the recorder anything.
        if let started { events(.clipStarted(started)) }
        return outcome
    }

    private func trigger(at explicit: UInt64?, after: TimeSpec?, withStill: Bool,
                         started: inout ClipStartLine?) -> Result<TriggerOutcome, CamrecError> {
        shared.withLock { state -> Result<TriggerOutcome, CamrecError> in
            guard !state.ended else { return .failure(CamrecError(.usage, "no clip: the recording is ending")) }
            guard let newest = state.newest, let caps = state.caps, !state.hasSound || state.soundCaps != nil else {
                return .failure(CamrecError(.usage, "no clip: no frame has been recorded yet"))
            }
            let time = explicit ?? newest
            let postRoll = after.map { UInt64(max($0.nanoseconds, 0)) }
            switch state.schedule.trigger(at: time, after: postRoll) {
            case .extended(let clip):
                guard let current = state.active else { return .failure(CamrecError(.failure, "no clip is being written")) }
                // Sound that came past the old end and waited in the pre-roll goes in now.
                if current.writer.hasSound {
                    for packet in state.soundPreRoll.packets where packet.pts > current.writer.soundPushedUpTo && packet.pts < clip.end {
                        current.writer.pushAudio(packet.payload)
                    }
                }
                return .success(.extended(path: current.final, number: current.number))
            case .started(let clip):
                let kept = state.preRoll.clip(nearest: clip.start, frameDuration: frameDuration)
                guard let first = kept.packets.first else {
                    _ = state.schedule.close(at: clip.start)
                    return .failure(CamrecError(.failure, "no clip: nothing decodable has been encoded yet"))
                }
                let (number, final) = nextName(after: &state.lastNumber)
                let audioCaps = state.hasSound ? state.soundCaps : nil
                let made = Result { () throws(CamrecError) -> ClipWriter in
                    try ClipWriter(path: Self.partialPath(final), chain: muxer, caps: caps, audioCaps: audioCaps,
                                   base: first.pts, captured: captureTime?(first.pts, state.firstPTS ?? first.pts))
                }
                guard case .success(let writer) = made else {
                    _ = state.schedule.close(at: clip.start)
                    if case .failure(let error) = made { return .failure(error) }
                    return .failure(CamrecError(.failure, "no clip"))
                }
                let origin = state.firstPTS ?? first.pts
                let seconds = { (time: UInt64) in (Double(time - min(time, origin)) / 1e6).rounded() / 1e3 }
                started = ClipStartLine(clip: number, path: final, time: seconds(time), start: seconds(clip.start))
                for packet in kept.packets { writer.push(packet.payload) }
                if writer.hasSound {
                    for packet in state.soundPreRoll.clip(from: first.pts).packets { writer.pushAudio(packet.payload) }
                }

                // Short: the first frame kept is later than the frame nearest the start.
                state.active = Active(writer: writer, number: number, final: final, isShort: first.pts > clip.start + frameDuration / 2,
                                      hasStill: withStill)
                // With no post-roll, the clip may already be complete.
                if let done = state.schedule.frame(at: time + frameDuration / 2), let current = state.active {
                    finishLocked(current, clip: done, in: &state)
                }
                return .success(.started(path: final, number: number))
            }
        }
    }

    /// Bytes the pre-roll holds now (for `ctl status`).
    var preRollBytes: Int { shared.withLock { $0.preRoll.bytes + $0.soundPreRoll.bytes } }

    /// The run ends: the clip being written ends with the last packet, and every clip
    /// still being finished is waited for (at most `seconds`). Returns the clips made.
    func finish(within seconds: Double = 60) -> [ResultFile] {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        // The feed's last packets come on its own thread: wait for its end (briefly).
        shared.wait(until: \.feedEnded, deadline: ContinuousClock.now + .seconds(2)) { state, _ in
            state.ended = true
            if let current = state.active, let clip = state.schedule.close(at: (state.newest ?? 0) + frameDuration) {
                finishLocked(current, clip: clip, in: &state)
            }
        }
        return shared.wait(until: { $0.finishing == 0 }, deadline: deadline) { state, _ in state.files }
    }

    // MARK: Finishing a clip

    /// Hands the clip being written to a thread of its own (`state` is the shared state,
    /// its lock held).
    private func finishLocked(_ current: Active, clip: ClipSchedule.Clip, in state: inout State) {
        state.active = nil
        state.finishing += 1
        // The sound goes on to the picture's end (it arrives on its own thread, maybe later).
        if current.writer.hasSound {
            if state.ended || clip.end <= state.soundPreRoll.packets.last.map({ $0.end }) ?? 0 {
                current.writer.endAudio()
            } else {
                state.soundClosing.append((current.writer, clip.end))
            }
        }
        NamedThread.start("camrec-clip") { [self] in
            let file = complete(current, clip: clip)
            if let file { events(.clip(file)) }
            shared.withLock { state in
                if let file { state.files.append(file) }
            }
            if file != nil { applyRetention() }
            shared.withLockWaking { $0.finishing -= 1 }
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
        // starts at the keyframe at or before it; with --clip-start keyframe, that keyframe.
        let half = frameDuration / 2
        let wanted = clip.start > half ? clip.start - half : 0
        let offset = settings.start == .keyframe ? 0 : writer.times.first { writer.base + $0 >= wanted } ?? 0
        let first = writer.base + offset
        // When its first frame was captured: in its line, and written into an MP4 or MOV.
        let captured = captureTime?(first, firstPTSValue)
        var file: ResultFile
        var reencoded = 0
        if offset > 0 {
            let request = TrimRequest(input: writer.path, start: TimeSpec(nanoseconds: Int64(offset)), mode: .accurate,
                                      destination: .path(final))
            do {
                let trimmed = try Trimmer.run(request)
                unlink(writer.path)
                if let captured { MovieCapture.stamp(final, container: MediaContainer(recordingPath: final) ?? .matroska, time: captured, tags: tags) }
                file = ResultFile(path: final, kind: "clip", duration: trimmed.duration, frames: trimmed.frames, bytes: trimmed.bytes)
                reencoded = trimmed.framesReencoded
            } catch {
                events(.warning("clip \(current.number) starts at the keyframe before the time asked for: \(error.message)"))
                guard let moved = move(writer, to: final, frames: writer.packets) else { return nil }
                file = moved
            }
        } else {
            if let captured { MovieCapture.stamp(writer.path, container: MediaContainer(recordingPath: final) ?? .matroska, time: captured, tags: tags) }
            guard let moved = move(writer, to: final, frames: writer.packets) else { return nil }
            file = moved
        }
        file.start = captured?.iso8601(utc: naming.utc)
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

    private var firstPTSValue: UInt64 { shared.withLock { $0.firstPTS ?? 0 } }

    /// The running time of the movie's first frame, once one was encoded.
    var firstFrameTime: UInt64? { shared.withLock { $0.firstPTS } }

    /// The running time of the newest encoded frame; nil before the first.
    var newestFrameTime: UInt64? { shared.withLock { $0.newest } }

    let retentionLock = Mutex(())
}

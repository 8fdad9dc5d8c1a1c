import FoundationEssentials
import GStreamer
import Synchronization

/// One encoded packet for event clips: its buffer, and its place on the recording's
/// timeline (running time), which branches share; its buffer times may be shifted (an
/// encoder's 1000-hour offset) and are moved by `shift` onto that timeline.
struct ClipPacket: Sendable {
    let buffer: Buffer
    /// Running time minus buffer time (ns).
    let shift: Int64
    /// Its presentation time on the recording's timeline (running time, ns).
    var time: UInt64 { UInt64(max(0, Int64(bitPattern: buffer.pts ?? 0) + shift)) }

    /// The sample's buffer and its running time; nil without a time or outside its segment.
    /// With `copy`, the buffer's bytes are copied (see `ClipRecorder`: pools of few buffers).
    init?(_ sample: Sample, copy: Bool = false) {
        guard let original = sample.buffer, let pts = original.pts,
              let buffer = copy ? original.view.deepCopy() : original else { return nil }
        let running = sample.segment.flatMap { $0.isTime ? $0.runningTime(of: pts) : nil } ?? pts
        self.buffer = buffer
        shift = Int64(bitPattern: running) - Int64(bitPattern: pts)
    }
}

/// Writes one event clip's packets (already encoded: nothing is decoded) into a file of its
/// own: `appsrc ! parser ! muxer ! filesink`, the muxer the movie's (hybrid MP4, crash-safe
/// as a movie is, or Matroska), with a second appsrc for the sound when the recording has
/// sound. Packets are restamped so that the clip starts at 0 with its first video packet
/// (a keyframe); sound and picture keep the distance they had in the movie.
final class ClipWriter: Sendable {
    private let pipeline: Pipeline
    private let video: AppSrc
    private let audio: AppSrc?
    private let stopper: PipelineStopper
    /// Mends the clip's fragment headers as they are written (``FragmentRepair``).
    private let fragmentRepair: ProbeToken?
    /// The first packet's time on the recording's timeline: the clip's 0.
    let base: UInt64
    /// The file written.
    let path: String
    /// What the pushes change (under `ClipRecorder`'s lock, and read once the clip is finished).
    private struct Pushed {
        /// Each video packet's time in the file (ns from `base`), in the order pushed.
        var times: [UInt64] = []
        /// The newest sound packet's time pushed (the recording's timeline); 0 before any.
        var soundUpTo: UInt64 = 0
    }
    private let pushed = Mutex(Pushed())
    /// Each video packet's time in the file (ns from `base`), in the order pushed.
    var times: [UInt64] { pushed.withLock { $0.times } }
    /// Video packets pushed.
    var packets: Int { pushed.withLock { $0.times.count } }
    /// Whether the sound has ended (`finish` waits for it); true from the start without sound.
    private let audioEnded: Monitor<Bool>

    /// A writer into `path` through `chain` (gst-launch syntax: the parser and the movie's
    /// muxer), for video packets of `caps` whose first is at `base`, and sound packets of
    /// `audioCaps` when there is sound.
    /// `captured`: when the first frame was captured, written as a Matroska file's date.
    init(path: String, chain: String, caps: Caps, audioCaps: Caps?, base: UInt64, captured: WallTime? = nil) throws(CamrecError) {
        self.path = path
        self.base = base
        let location = "\"" + Pipeline.escapeForParser(path) + "\""
        var description = "appsrc name=clipsrc format=time ! \(chain) name=clipmux ! filesink location=\(location)"
        if audioCaps != nil { description += " appsrc name=clipaudio format=time ! clipmux.audio_0" }
        do {
            pipeline = try Pipeline.withBuiltIns(description)
            video = try AppSrc(pipeline.element(named: "clipsrc"))
            video.setCaps(caps)
            if let audioCaps {
                let audio = try AppSrc(pipeline.element(named: "clipaudio"))
                audio.setCaps(audioCaps)
                self.audio = audio
                audioEnded = Monitor(false)
            } else {
                audio = nil
                audioEnded = Monitor(true)
            }
            stopper = PipelineStopper(pipeline)
            let muxer = try? pipeline.element(named: "clipmux")
            fragmentRepair = muxer.flatMap(FragmentRepair.watch)
            if let muxer, let captured, muxer.factoryName == "matroskamux" { MatroskaCreationTime.set(captured, on: muxer) }
            try pipeline.setState(.playing)
        } catch {
            throw CamrecError(.failure, "cannot start writing the clip \(path): \(error)")
        }
    }

    /// Whether it takes sound.
    var hasSound: Bool { audio != nil }

    /// Pushes one video packet (its timestamps moved so that `base` is 0, on a copy of its
    /// metadata: the pre-roll keeps the original); never blocks.
    func push(_ packet: ClipPacket) {
        guard let buffer = Self.restamped(packet, base: base) else { return }
        video.push(buffer)
        pushed.withLock { $0.times.append(buffer.pts ?? 0) }
    }

    /// The newest sound packet's time pushed (the recording's timeline); 0 before any.
    var soundPushedUpTo: UInt64 { pushed.withLock { $0.soundUpTo } }

    /// Pushes one sound packet; packets from before the clip's start, or not newer than
    /// the last pushed, are left out.
    func pushAudio(_ packet: ClipPacket) {
        let pts = packet.time
        guard let audio else { return }
        let newer = pushed.withLock { pushed -> Bool in
            guard pts >= base, pts > pushed.soundUpTo || pushed.soundUpTo == 0 else { return false }
            pushed.soundUpTo = pts
            return true
        }
        guard newer else { return }
        if let buffer = Self.restamped(packet, base: base) { audio.push(buffer) }
    }

    /// The sound is complete (a packet past the clip's end came, or the run ended).
    func endAudio() {
        let first = audioEnded.withLockWaking { ended -> Bool in
            defer { ended = true }
            return !ended
        }
        if first, let audio { _ = audio.endOfStream() }
    }

    /// The packet on the clip's timeline: its running time less `base` (DTS moved as
    /// much as PTS), on a copy of its metadata; nil only when GStreamer cannot copy it.
    private static func restamped(_ packet: ClipPacket, base: UInt64) -> Buffer? {
        let move = { (time: UInt64) -> UInt64 in UInt64(max(0, Int64(bitPattern: time) + packet.shift - Int64(bitPattern: base))) }
        return packet.buffer.edited { buffer in
            if let pts = buffer.pts { buffer.pts = move(pts) }
            if let dts = buffer.dts { buffer.dts = move(dts) }
        }
    }

    /// Ends the clip: the picture ends now; the sound when `endAudio()` is called (waited
    /// for at most `soundSeconds`, then ended); then the muxer finalises the file (waited
    /// for, at most `seconds`) and the pipeline stops. True when the file was finalised.
    func finish(soundSeconds: Double = 3, within seconds: Double = 30) -> Bool {
        _ = video.endOfStream()
        let soundDeadline = ContinuousClock.now + .milliseconds(Int(soundSeconds * 1000))
        audioEnded.wait(until: { $0 }, deadline: soundDeadline) { _, _ in }
        endAudio()
        var finalised = false
        if let bus = pipeline.bus {
            let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
            waiting: while ContinuousClock.now < deadline {
                switch bus.pop(timeoutNanoseconds: 100_000_000) {
                case .endOfStream?:
                    finalised = true
                    break waiting
                case .error?:
                    break waiting
                default:
                    continue
                }
            }
        }
        _ = stopper.stop()
        fragmentRepair?.remove()
        return finalised
    }
}

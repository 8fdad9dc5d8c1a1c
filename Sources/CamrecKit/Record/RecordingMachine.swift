import GStreamer

/// A recording's logic as a state machine of values: bus messages, ticks and stop
/// requests in, actions out. `RecordingSession` feeds it and carries out what it says;
/// every transition is tested without GStreamer.
///
/// States and their transitions:
/// - `recording`: no usable frame from the camera within `startTimeout` → `done` (no
///   usable frame); the limit, a stop request, a lost camera or the end of a movie played
///   as the camera → `stopping` (EOS sent, or
///   sent by the source itself); one of a canvas's cameras lost while others deliver →
///   `recording` (a warning; the run ends as `cameraLost`); three stop requests at once, a full disk → `done`
///   (kept unfinalised); an error before the first frame or any other error → `done`
///   (failed); EOS (the source ended by itself) → `done` (finalised).
/// - `stopping`: EOS → `done` (finalised); a second stop request → `stopping` (a warning:
///   wrappers such as `timeout` and systemd signal the child and then its whole process
///   group, so a second request is no sign of impatience); a third → `done` (aborted);
///   the finalise deadline passes → `done` (kept unfinalised); more errors from the lost
///   camera are ignored. EOS with segments still being finalised → `finalising`.
/// - `finalising` (segments: the muxer finalises the last movies on threads of its own
///   after EOS): each movie closed is committed in the order the movies were made; the
///   last one closed → `done` (finished); the deadline passes → `done` (finished, the
///   movies not closed kept as written); stop requests, a full disk and errors as in
///   `stopping` (an error is said, and the finalising goes on).
/// - `done`: every event is ignored.
///
/// In every state but `done`, a movie closed by the muxer (a segment ended) is committed
/// in the order the movies were made, and retention applied after it.
struct RecordingMachine {
    /// How long finalising may take before the file is kept as it is: a pipeline that
    /// never delivers EOS (a wedged element) must not hang a script.
    static let finaliseTimeout: Duration = .seconds(10)
    /// How long a camera may take to deliver its first usable frame (one that is neither
    /// empty nor corrupt) before the run gives up: a camera that sends only broken frames
    /// must not make a script wait for ever.
    static let startTimeout: Duration = .seconds(5)
    /// How often progress is reported.
    static let progressInterval: Duration = .milliseconds(500)
    /// The stop requests that abort a stop under way: the first stops, the second (a
    /// wrapper's signal to the process group, arriving within milliseconds of the first)
    /// is only warned about, the third aborts.
    static let abortRequests = 3

    enum State: Equatable {
        case recording
        case stopping(StopReason, deadline: ContinuousClock.Instant)
        /// EOS went through; the muxer still finalises `movies` (the run's 0-based movie
        /// numbers, oldest first). `requested` is nil when the source ended by itself.
        case finalising(requested: StopReason?, movies: [Int], deadline: ContinuousClock.Instant)
        case done
    }

    enum Event {
        /// Time passes; sent on every turn of the bus loop, message or not.
        case tick(ContinuousClock.Instant)
        /// The gate held back the first frame past `--max-duration`.
        case limitReached(ContinuousClock.Instant)
        /// Stop requests (signals, control socket, keys): `count` so far in all.
        case stopRequested(StopReason, count: Int, ContinuousClock.Instant)
        /// The muxer finalised the file and the sink has it all; with segments, the muxer may
        /// still be finalising `finalising` (the movies it has not closed yet, oldest first)
        /// on threads of its own.
        case endOfStream(finalising: [Int] = [], at: ContinuousClock.Instant = .now)
        /// The muxer closed movie `index` (a segment ended, or the run); `open` is every movie
        /// not committed yet, oldest first (`index` among them).
        case movieClosed(Int, open: [Int])
        /// The camera failed (an error from the source), after `framesRecorded` frames.
        case cameraFailed(ElementFailure, framesRecorded: Int, ContinuousClock.Instant)
        /// Camera `index` (0-based) of a canvas (`--layout`) failed, after `framesRecorded`
        /// frames of the movie. `camera` names it ("camera 2 (/dev/video1)").
        case canvasCameraFailed(index: Int, camera: String, ElementFailure, framesRecorded: Int, ContinuousClock.Instant)
        /// Lost camera `index` of a canvas (`--reconnect`) is back in its cell, at `device`,
        /// after `gap` seconds.
        case canvasCameraBack(index: Int, device: String, gap: Double)
        /// The sound source failed, after `framesRecorded` frames of the movie.
        case soundFailed(ElementFailure, framesRecorded: Int)
        /// The sound source delivered nothing within `AudioGate.soundStartTimeout`.
        case noSound
        /// A write failed for lack of space.
        case diskFull
        /// Free space stays below `--min-free` with nothing left to delete: finalise and stop.
        case diskLow(ContinuousClock.Instant)
        /// Any other error.
        case failed(GStreamerError)
        /// A warning the recording survives.
        case warning(String)
        /// The first corrupt camera frame was held back.
        case firstCorruptFrame
        /// The camera's first usable frame went through.
        case firstUsableFrame
        /// A movie played as a camera (`--device file:`) ended, or failed mid-way
        /// (`message`). `endsItself`: its end of stream flows into the movie (it is the
        /// movie's one source); on a canvas it ends only its cell.
        case sourceEnded(message: String?, endsItself: Bool, ContinuousClock.Instant)
    }

    enum Action: Equatable {
        /// Send EOS into the pipeline so that the muxer finalises (the sound ends with the
        /// picture's last frame first).
        case sendEndOfStream
        /// The camera ended its branch itself: end the sound where its last frame ends.
        case endSoundAtLastFrame
        /// End the sound branch now: the movie goes on without sound.
        case endSound
        /// Camera `index` of a canvas is lost: its cell stays black (and, with `--reconnect`,
        /// it is waited for).
        case markCellLost(Int)
        /// Camera `camera` of a canvas is back at `device` with its power-on controls: set
        /// camrec's (`--set`, `--flash`) again.
        case restoreControls(camera: Int, device: String)
        /// Tell the caller.
        case report(Report)
        /// Report progress now (the session knows the counts).
        case reportProgress(since: Duration)
        /// Movie `index` is finalised (a segment): publish it and say so.
        case commit(Int)
        /// Movies were committed: apply retention (`--keep`, `--keep-size`, `--min-free`).
        case applyRetention
        /// The file is finalised: commit it. `requested` is nil when the source ended by itself.
        /// `unfinished`: segments whose finalising never ended, to be kept as written.
        case finish(requested: StopReason?, message: String?, unfinished: [Int] = [])
        /// Stop at once and keep what the file holds.
        case keepUnfinalised(StopReason, cause: String)
        /// Stop and fail with this error.
        case fail(GStreamerError)
        /// Stop: the camera delivered no usable frame within `startTimeout`.
        case noUsableFrame
    }

    /// What the machine reports to the caller.
    enum Report: Equatable {
        case stopping(StopReason)
        case warning(String)
        /// A lost camera is back (a canvas camera, in its cell).
        case cameraBack(device: String, gap: Double)
    }

    /// A canvas (`--layout`): how many cameras it has, and whether the loss of any ends the movie.
    struct Canvas: Equatable {
        var cameras: Int
        var allOrNothing: Bool
    }

    private(set) var state: State = .recording
    private let canvas: Canvas?
    private var lastProgress: ContinuousClock.Instant
    private var lostMessage: String?
    /// The stop requests acted on so far (each wake may repeat a count already seen).
    private var stopRequestsSeen = 0
    /// When the run gives up waiting for a usable frame; nil once one came.
    private var startDeadline: ContinuousClock.Instant?
    /// The canvas cameras lost while the movie went on (and not back), with their errors.
    private var canvasLost: [(index: Int, camera: String, message: String)] = []
    /// Whether the sound branch was ended (lost, silent, or with the camera).
    private var soundEnded = false
    /// Movies the muxer closed while an older one is still being finalised: committed once
    /// the older ones are (files finish on threads of their own, out of order).
    private var closedAhead: Set<Int> = []

    init(start: ContinuousClock.Instant, canvas: Canvas? = nil) {
        self.canvas = canvas
        lastProgress = start
        startDeadline = start + Self.startTimeout
    }

    /// Whether the run is over (an action that ends it was returned).
    var isDone: Bool { state == .done }

    mutating func handle(_ event: Event) -> [Action] {
        guard state != .done else { return [] }
        switch event {
        case .tick(let now):
            if case .stopping(let reason, let deadline) = state, now > deadline {
                state = .done
                return [.keepUnfinalised(reason, cause: "the pipeline did not finalise the file within 10 s")]
            }
            if case .finalising(let requested, let movies, let deadline) = state {
                guard now > deadline else { return [] }
                return finishRun(requested: requested, unfinished: movies)
            }
            if state == .recording, let startDeadline, now > startDeadline {
                state = .done
                return [.noUsableFrame]
            }
            guard now - lastProgress >= Self.progressInterval else { return [] }
            defer { lastProgress = now }
            return [.reportProgress(since: now - lastProgress)]

        case .limitReached(let now):
            guard state == .recording else { return [] }
            return beginStop(.maxDuration, at: now) + [.sendEndOfStream]

        case .sourceEnded(let message, let endsItself, let now):
            // As at --max-duration: the movie so far is finalised; a failure is said.
            guard state == .recording else { return [] }
            var actions: [Action] = []
            if let message {
                lostMessage = message
                actions.append(.report(.warning(message + ": finalising the recording so far")))
            }
            guard endsItself else { return actions + beginStop(.sourceEnded, at: now) + [.sendEndOfStream] }
            // Its end of stream is on its way to the muxer already (a second would make it
            // finalise twice): the sound ends where the last frame does.
            soundEnded = true
            return actions + [.endSoundAtLastFrame] + beginStop(.sourceEnded, at: now)

        case .stopRequested(let reason, let count, let now):
            guard count > stopRequestsSeen else { return [] }
            let before = stopRequestsSeen
            stopRequestsSeen = count
            if count >= Self.abortRequests {
                state = .done
                return [.keepUnfinalised(.aborted, cause: "aborted")]
            }
            guard state == .recording else {
                // Asked again while finalising: said once, then the finalising goes on.
                guard before < Self.abortRequests - 1, count == Self.abortRequests - 1 else { return [] }
                return [.report(.warning("asked again to stop: still finalising the movie (at most \(Self.finaliseTimeout.components.seconds) s); one more signal aborts without finalising"))]
            }
            return beginStop(reason, at: now) + [.sendEndOfStream]

        case .endOfStream(let finalising, let now):
            if case .finalising = state { return [] }
            let requested: StopReason? = if case .stopping(let reason, _) = state { reason } else { nil }
            guard finalising.isEmpty else {
                // Wait for the muxer to close the movies it finalises: stopping the pipeline
                // now would cut them short.
                state = .finalising(requested: requested, movies: finalising, deadline: now + Self.finaliseTimeout)
                return []
            }
            return finishRun(requested: requested, unfinished: [])

        case .movieClosed(let index, let open):
            guard open.contains(index) else { return [] }
            closedAhead.insert(index)
            var committed: [Int] = []
            for movie in open {
                guard closedAhead.remove(movie) != nil else { break }
                committed.append(movie)
            }
            guard !committed.isEmpty else { return [] }
            let actions = committed.map { Action.commit($0) } + [.applyRetention]
            guard case .finalising(let requested, let movies, let deadline) = state else { return actions }
            let left = movies.filter { !committed.contains($0) }
            if left.isEmpty { return actions + finishRun(requested: requested, unfinished: []) }
            state = .finalising(requested: requested, movies: left, deadline: deadline)
            return actions

        case .cameraFailed(let failure, let frames, let now):
            if case .stopping(.cameraLost, _) = state { return [] }   // follow-up errors of the same loss
            if case .finalising = state { return [] }                  // the camera's part is over
            guard frames > 0 else {
                // Before the first frame: the camera could not start (busy, gone, refused).
                state = .done
                return [.fail(.element(failure))]
            }
            let message = failure.message
            // GstBaseSrc sends EOS downstream itself after a fatal flow error (a second
            // EOS from us would make the muxer finalise twice): no EOS action here. The
            // deadline covers the case where that EOS never comes.
            lostMessage = "camera lost: \(message)"
            soundEnded = true
            return [.endSoundAtLastFrame, .report(.warning("camera lost (\(message)): finalising the recording so far"))]
                + beginStop(.cameraLost, at: now)

        case .canvasCameraFailed(let index, let camera, let failure, let frames, let now):
            // Follow-up errors of a camera already lost say nothing new; once the movie is
            // ending, a camera's error changes nothing (its source ends its branch itself).
            guard state == .recording, !canvasLost.contains(where: { $0.index == index }) else { return [] }
            // Lost once the movie began: its cell goes black and the others go on, unless
            // --all-or-nothing or it was the last one.
            if frames > 0, let canvas, !canvas.allOrNothing, canvasLost.count + 1 < canvas.cameras {
                canvasLost.append((index, camera, failure.message))
                return [.markCellLost(index),
                        .report(.warning("\(camera) lost (\(failure.message)): its cell is black from here; the movie goes on with the other cameras"))]
            }
            // Otherwise the movie ends there, finalised, as for one camera; the others are sent EOS.
            var named = failure
            named.message = camera + ": " + failure.message
            guard frames > 0 else {
                state = .done
                return [.fail(.element(named))]
            }
            lostMessage = "camera lost: \(named.message)"
            return [.report(.warning("camera lost (\(named.message)): finalising the recording so far"))]
                + beginStop(.cameraLost, at: now) + [.sendEndOfStream]

        case .canvasCameraBack(let index, let device, let gap):
            guard state == .recording, canvasLost.contains(where: { $0.index == index }) else { return [] }
            canvasLost.removeAll { $0.index == index }
            return [.report(.cameraBack(device: device, gap: gap)), .restoreControls(camera: index, device: device)]

        case .soundFailed(let failure, let frames):
            // Before the first frame the run fails (nothing was recorded). Later, the movie
            // goes on with the sound it has, the rest without sound; the branch's own
            // follow-up failure ("Internal data stream error") says nothing new.
            guard frames > 0 else {
                state = .done
                return [.fail(.element(failure))]
            }
            guard !soundEnded else { return [] }
            soundEnded = true
            return [.endSound, .report(.warning("the sound source stopped (\(failure.message)): the movie goes on without sound from here"))]

        case .noSound:
            guard !soundEnded else { return [] }
            soundEnded = true
            return [.endSound, .report(.warning("the sound source delivered nothing within \(AudioGate.soundStartTimeout.components.seconds) s: recording without sound (camrec devices lists sound sources)"))]

        case .diskLow(let now):
            guard state == .recording else { return [] }
            return beginStop(.diskFull, at: now) + [.sendEndOfStream]

        case .diskFull:
            state = .done
            return [.keepUnfinalised(.diskFull, cause: "disk full")]

        case .failed(let error):
            if case .finalising = state {
                // The movies finished so far are committed: said, and the finalising goes on
                // (a movie that does not close is kept as written at the deadline).
                return [.report(.warning("an error while the last movies were being finalised: \(error)"))]
            }
            state = .done
            return [.fail(error)]

        case .warning(let text):
            return [.report(.warning(text))]

        case .firstUsableFrame:
            startDeadline = nil
            return []

        case .firstCorruptFrame:
            return [.report(.warning("the camera delivered a corrupt frame (cut short): corrupt frames are left out of the movie and stills, and counted (corrupt_frames)"))]
        }
    }

    /// Ends the run: the file is finalised. A canvas that lost a camera on the way (not
    /// back) ends as a lost camera, whatever ended it.
    private mutating func finishRun(requested: StopReason?, unfinished: [Int]) -> [Action] {
        state = .done
        if !canvasLost.isEmpty {
            let lost = canvasLost.map { "camera lost: \($0.camera): \($0.message)" }
            return [.finish(requested: .cameraLost, message: ([lostMessage].compactMap { $0 } + lost).joined(separator: "; "),
                            unfinished: unfinished)]
        }
        return [.finish(requested: requested, message: lostMessage, unfinished: unfinished)]
    }

    private mutating func beginStop(_ reason: StopReason, at now: ContinuousClock.Instant) -> [Action] {
        state = .stopping(reason, deadline: now + Self.finaliseTimeout)
        return [.report(.stopping(reason))]
    }
}

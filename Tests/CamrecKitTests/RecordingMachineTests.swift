@testable import CamrecKit
import GStreamer
import Testing

/// Every transition of the recording's state machine, with plain values: no pipeline.
@Suite struct RecordingMachineTests {
    let start = ContinuousClock.now

    func at(_ seconds: Double) -> ContinuousClock.Instant { start + .milliseconds(Int(seconds * 1000)) }

    static let cameraGone = ElementFailure(source: "src", domain: "gst-resource-error-quark", code: 9,
                                           message: "Could not read from resource.", debug: "")

    @Test func maxDurationSendsEOSThenFinishes() {
        var machine = RecordingMachine(start: start)
        #expect(machine.handle(.limitReached(at(3))) == [.report(.stopping(.maxDuration)), .sendEndOfStream])
        #expect(machine.handle(.limitReached(at(3.1))) == [])           // once only
        #expect(machine.handle(.stopRequested(.signal, count: 1, at(3.2))) == [])   // already stopping
        #expect(machine.handle(.endOfStream()) == [.finish(requested: .maxDuration, message: nil)])
        #expect(machine.isDone)
    }

    @Test func signalStopsThenFinishes() {
        var machine = RecordingMachine(start: start)
        #expect(machine.handle(.stopRequested(.signal, count: 1, at(1))) == [.report(.stopping(.signal)), .sendEndOfStream])
        #expect(machine.handle(.endOfStream()) == [.finish(requested: .signal, message: nil)])
    }

    /// Issue 29 item 3: `timeout` (and systemd, and a shell's job control) signals camrec and
    /// then its whole process group: the second request, within milliseconds, must not
    /// abort the finalising. It is warned about once; the third aborts.
    @Test func item3_aSecondSignalWhileFinalisingDoesNotAbortTheThirdDoes() {
        var machine = RecordingMachine(start: start)
        _ = machine.handle(.stopRequested(.signal, count: 1, at(1)))
        let second = machine.handle(.stopRequested(.signal, count: 2, at(1.001)))
        #expect(second.count == 1)
        guard case .report(.warning(let text))? = second.first else {
            Issue.record("the second request is said, not acted on: \(second)")
            return
        }
        #expect(text.contains("one more signal aborts"))
        #expect(machine.state == .stopping(.signal, deadline: at(1) + RecordingMachine.finaliseTimeout))
        // The same count again (another wake for the same requests) says nothing more.
        #expect(machine.handle(.stopRequested(.signal, count: 2, at(1.002))) == [])
        #expect(machine.handle(.stopRequested(.signal, count: 3, at(1.1))) == [.keepUnfinalised(.aborted, cause: "aborted")])
        #expect(machine.handle(.endOfStream()) == [])                    // nothing after the end
    }

    @Test func item3_twoSignalsAtOnceStopAndFinalise() {
        var machine = RecordingMachine(start: start)
        #expect(machine.handle(.stopRequested(.signal, count: 2, at(1))) == [.report(.stopping(.signal)), .sendEndOfStream])
        #expect(machine.handle(.endOfStream()) == [.finish(requested: .signal, message: nil)])
    }

    @Test func threeSignalsAtOnceAbort() {
        var machine = RecordingMachine(start: start)
        #expect(machine.handle(.stopRequested(.signal, count: 3, at(1))) == [.keepUnfinalised(.aborted, cause: "aborted")])
        #expect(machine.isDone)
    }

    @Test func item3_aSignalWhileStoppingAtTheLimitIsNotAnAbort() {
        var machine = RecordingMachine(start: start)
        _ = machine.handle(.limitReached(at(1)))
        #expect(machine.handle(.stopRequested(.signal, count: 1, at(1.01))) == [])
        #expect(machine.handle(.endOfStream()) == [.finish(requested: .maxDuration, message: nil)])
    }

    @Test func cameraLostFinalisesWithoutASecondEOS() {
        var machine = RecordingMachine(start: start)
        let actions = machine.handle(.cameraFailed(Self.cameraGone, framesRecorded: 90, at(3)))
        #expect(actions == [.endSoundAtLastFrame,
                            .report(.warning("camera lost (Could not read from resource.): finalising the recording so far")),
                            .report(.stopping(.cameraLost))])
        #expect(!actions.contains(.sendEndOfStream), "the source sends EOS itself")
        // Follow-up errors of the same loss are ignored.
        #expect(machine.handle(.cameraFailed(Self.cameraGone, framesRecorded: 90, at(3.1))) == [])
        #expect(machine.handle(.endOfStream()) == [.finish(requested: .cameraLost, message: "camera lost: Could not read from resource.")])
    }

    static let three = RecordingMachine.Canvas(cameras: 3, allOrNothing: false)

    static func gone(_ index: Int) -> RecordingMachine.Event {
        .canvasCameraFailed(index: index, camera: "camera \(index + 1) (/dev/video\(index))",
                            ElementFailure(source: "camera\(index + 1)", domain: "gst-resource-error-quark", code: 9, message: "gone", debug: ""),
                            framesRecorded: 30, .now)
    }

    @Test func aCanvasGoesOnWithoutALostCameraAndEndsAsCameraLost() {
        var machine = RecordingMachine(start: start, canvas: Self.three)
        #expect(machine.handle(Self.gone(1)) == [.markCellLost(1),
            .report(.warning("camera 2 (/dev/video1) lost (gone): its cell is black from here; the movie goes on with the other cameras"))])
        #expect(machine.handle(Self.gone(1)) == [])   // its follow-up errors say nothing new
        #expect(machine.state == .recording)
        // The limit ends the movie as usual, and the run says a camera was lost.
        #expect(machine.handle(.limitReached(at(3))) == [.report(.stopping(.maxDuration)), .sendEndOfStream])
        #expect(machine.handle(Self.gone(2)) == [])   // stopping: nothing more to say
        #expect(machine.handle(.endOfStream()) == [.finish(requested: .cameraLost, message: "camera lost: camera 2 (/dev/video1): gone")])
    }

    @Test func aCanvasCameraThatComesBackEndsTheRunAsUsual() {
        var machine = RecordingMachine(start: start, canvas: Self.three)
        _ = machine.handle(Self.gone(1))
        // Only a camera that was lost can come back.
        #expect(machine.handle(.canvasCameraBack(index: 0, device: "/dev/video0", gap: 1)) == [])
        #expect(machine.handle(.canvasCameraBack(index: 1, device: "/dev/video4", gap: 0.5))
                == [.report(.cameraBack(device: "/dev/video4", gap: 0.5)), .restoreControls(camera: 1, device: "/dev/video4")])
        _ = machine.handle(.limitReached(at(3)))
        #expect(machine.handle(.endOfStream()) == [.finish(requested: .maxDuration, message: nil)])
    }

    @Test func aCanvasThatLostACameraStillAbortsOnThreeSignals() {
        var machine = RecordingMachine(start: start, canvas: Self.three)
        _ = machine.handle(Self.gone(1))
        #expect(machine.handle(.stopRequested(.signal, count: 3, at(1))) == [.keepUnfinalised(.aborted, cause: "aborted")])
    }

    @Test func cameraErrorBeforeTheFirstFrameFails() {
        var machine = RecordingMachine(start: start)
        #expect(machine.handle(.cameraFailed(Self.cameraGone, framesRecorded: 0, at(0.1))) == [.fail(.element(Self.cameraGone))])
        #expect(machine.isDone)
    }

    @Test func diskFullKeepsTheFileUnfinalised() {
        var machine = RecordingMachine(start: start)
        #expect(machine.handle(.diskFull) == [.keepUnfinalised(.diskFull, cause: "disk full")])
    }

    @Test func otherErrorsFail() {
        var machine = RecordingMachine(start: start)
        let failure = GStreamerError.element(ElementFailure(source: "mux", domain: "stream", code: 1, message: "boom", debug: ""))
        #expect(machine.handle(.failed(failure)) == [.fail(failure)])
    }

    @Test func wedgedFinaliseIsKeptAfterTheDeadline() {
        var machine = RecordingMachine(start: start)
        _ = machine.handle(.stopRequested(.control, count: 1, at(1)))
        #expect(!machine.handle(.tick(at(10.9))).contains { if case .keepUnfinalised = $0 { true } else { false } })
        #expect(machine.handle(.tick(at(11.01))) == [.keepUnfinalised(.control, cause: "the pipeline did not finalise the file within 10 s")])
    }

    /// A bus that never goes quiet (warnings, state changes) cannot hold off the
    /// deadline or progress: the loop ticks the machine on every turn.
    @Test func ticksBetweenBusyMessagesStillReachTheDeadline() {
        var machine = RecordingMachine(start: start)
        _ = machine.handle(.limitReached(at(1)))
        var ended = false
        for step in 1...200 {   // a warning every 60 ms for 12 s
            let now = at(1 + Double(step) * 0.06)
            _ = machine.handle(.warning("busy"))
            if machine.handle(.tick(now)).contains(where: { if case .keepUnfinalised = $0 { true } else { false } }) {
                ended = true
                #expect(now > at(11) && now < at(11.1))
                break
            }
        }
        #expect(ended)
    }

    @Test func progressEveryHalfSecond() {
        var machine = RecordingMachine(start: start)
        #expect(machine.handle(.tick(at(0.4))) == [])
        #expect(machine.handle(.tick(at(0.5))) == [.reportProgress(since: .milliseconds(500))])
        #expect(machine.handle(.tick(at(0.9))) == [])
        #expect(machine.handle(.tick(at(1.2))) == [.reportProgress(since: .milliseconds(700))])
    }

    @Test func sourceEndingByItselfFinishesWithoutAReason() {
        var machine = RecordingMachine(start: start)
        #expect(machine.handle(.endOfStream()) == [.finish(requested: nil, message: nil)])
    }

    @Test func warningsAndCorruptFramesAreReported() {
        var machine = RecordingMachine(start: start)
        #expect(machine.handle(.warning("x264: slow")) == [.report(.warning("x264: slow"))])
        let corrupt = machine.handle(.firstCorruptFrame)
        #expect(corrupt.count == 1)
        #expect(machine.state == .recording)
    }
}

/// Issue 31 item 3: the canvas's all-or-nothing and last-camera rules and the loss of the
/// sound are the machine's decisions (they were the session's).
@Suite struct RecordingMachineLossTests {
    let start = ContinuousClock.now

    @Test func theLastCameraOfACanvasEndsTheMovie() {
        var machine = RecordingMachine(start: start, canvas: .init(cameras: 2, allOrNothing: false))
        #expect(machine.handle(RecordingMachineTests.gone(0)).first == .markCellLost(0))
        let last = machine.handle(RecordingMachineTests.gone(1))
        #expect(last == [.report(.warning("camera lost (camera 2 (/dev/video1): gone): finalising the recording so far")),
                         .report(.stopping(.cameraLost)), .sendEndOfStream])
        #expect(machine.handle(.endOfStream())
                == [.finish(requested: .cameraLost, message: "camera lost: camera 2 (/dev/video1): gone; camera lost: camera 1 (/dev/video0): gone")])
    }

    @Test func allOrNothingEndsTheMovieAtTheFirstLoss() {
        var machine = RecordingMachine(start: start, canvas: .init(cameras: 3, allOrNothing: true))
        #expect(machine.handle(RecordingMachineTests.gone(2)).last == .sendEndOfStream)
        #expect(machine.handle(RecordingMachineTests.gone(0)) == [])   // already ending
    }

    @Test func aCanvasCameraFailingBeforeTheFirstFrameFailsTheRun() {
        var machine = RecordingMachine(start: start, canvas: .init(cameras: 3, allOrNothing: false))
        let failure = ElementFailure(source: "camera2", domain: "gst-resource-error-quark", code: 3, message: "busy", debug: "")
        let actions = machine.handle(.canvasCameraFailed(index: 1, camera: "camera 2 (/dev/video1)", failure, framesRecorded: 0, .now))
        var named = failure
        named.message = "camera 2 (/dev/video1): busy"
        #expect(actions == [.fail(.element(named))])
        #expect(machine.isDone)
    }

    @Test func theSoundLostMidRunEndsItsBranchOnce() {
        var machine = RecordingMachine(start: start)
        let failure = ElementFailure(source: "audiosrc", domain: "gst-resource-error-quark", code: 9, message: "gone", debug: "")
        #expect(machine.handle(.soundFailed(failure, framesRecorded: 40))
                == [.endSound, .report(.warning("the sound source stopped (gone): the movie goes on without sound from here"))])
        #expect(machine.handle(.soundFailed(failure, framesRecorded: 41)) == [])   // its branch's follow-up error
        #expect(machine.handle(.noSound) == [])
        #expect(machine.state == .recording)
    }

    @Test func theSoundLostBeforeTheFirstFrameFailsTheRun() {
        var machine = RecordingMachine(start: start)
        let failure = ElementFailure(source: "audiosrc", domain: "gst-resource-error-quark", code: 3, message: "busy", debug: "")
        #expect(machine.handle(.soundFailed(failure, framesRecorded: 0)) == [.fail(.element(failure))])
    }

    @Test func silenceFromTheSoundSourceRecordsWithoutSound() {
        var machine = RecordingMachine(start: start)
        let actions = machine.handle(.noSound)
        #expect(actions.first == .endSound)
        #expect(actions.count == 2)
        #expect(machine.handle(.noSound) == [])
    }
}

@testable import CamrecKit
import GStreamer
import Testing

/// Issue 31 item 3: segment commits, retention and the wait for the last movies to be
/// finalised are the machine's decisions, tested here without a pipeline.
@Suite struct RecordingMachineSegmentTests {
    let start = ContinuousClock.now

    func at(_ seconds: Double) -> ContinuousClock.Instant { start + .milliseconds(Int(seconds * 1000)) }

    @Test func aClosedMovieIsCommittedThenRetentionApplied() {
        var machine = RecordingMachine(start: start)
        #expect(machine.handle(.movieClosed(0, open: [0, 1])) == [.commit(0), .applyRetention])
        #expect(machine.state == .recording)
    }

    /// splitmuxsink finalises files on threads of their own: a short movie may close before
    /// a long one made earlier. Movies are committed in the order they were made.
    @Test func moviesClosedOutOfOrderAreCommittedInOrder() {
        var machine = RecordingMachine(start: start)
        #expect(machine.handle(.movieClosed(3, open: [2, 3, 4])) == [])
        #expect(machine.handle(.movieClosed(2, open: [2, 3, 4])) == [.commit(2), .commit(3), .applyRetention])
        #expect(machine.handle(.movieClosed(4, open: [4, 5])) == [.commit(4), .applyRetention])
    }

    @Test func aMovieNotOpenIsIgnored() {
        var machine = RecordingMachine(start: start)
        #expect(machine.handle(.movieClosed(7, open: [0])) == [])
        #expect(machine.handle(.movieClosed(0, open: [0])) == [.commit(0), .applyRetention])
    }

    /// EOS with segments still being finalised: the run waits for them (the stopping state
    /// waits for "movie closed" like any other event) and finishes when the last one closes.
    @Test func theRunFinishesWhenTheLastMovieCloses() {
        var machine = RecordingMachine(start: start)
        _ = machine.handle(.stopRequested(.signal, count: 1, at(1)))
        #expect(machine.handle(.endOfStream(finalising: [4, 5], at: at(1.2))) == [])
        #expect(machine.state == .finalising(requested: .signal, movies: [4, 5], deadline: at(1.2) + RecordingMachine.finaliseTimeout))
        #expect(machine.handle(.tick(at(2))) == [])                      // no progress while finalising
        #expect(machine.handle(.movieClosed(5, open: [4, 5])) == [])
        #expect(machine.handle(.movieClosed(4, open: [4, 5]))
                == [.commit(4), .commit(5), .applyRetention, .finish(requested: .signal, message: nil)])
        #expect(machine.isDone)
    }

    @Test func aSourceThatEndsByItselfWaitsForItsMoviesToo() {
        var machine = RecordingMachine(start: start)
        #expect(machine.handle(.endOfStream(finalising: [0], at: at(1))) == [])
        #expect(machine.handle(.movieClosed(0, open: [0])) == [.commit(0), .applyRetention, .finish(requested: nil, message: nil)])
    }

    /// A movie whose finalising never ends is kept as written once the deadline passes.
    @Test func moviesThatNeverCloseAreHandedBackAtTheDeadline() {
        var machine = RecordingMachine(start: start)
        _ = machine.handle(.limitReached(at(1)))
        _ = machine.handle(.endOfStream(finalising: [1, 2], at: at(2)))
        #expect(machine.handle(.movieClosed(1, open: [1, 2])) == [.commit(1), .applyRetention])
        #expect(machine.handle(.tick(at(11.9))) == [])
        #expect(machine.handle(.tick(at(12.01))) == [.finish(requested: .maxDuration, message: nil, unfinished: [2])])
    }

    /// The wait used to read the bus itself and drop everything but splitmuxsink's
    /// messages: stop requests, errors and a full disk went unheard. Now they count.
    @Test func whileFinalisingSignalsErrorsAndAFullDiskAreHeard() {
        var machine = RecordingMachine(start: start)
        _ = machine.handle(.stopRequested(.signal, count: 1, at(1)))
        _ = machine.handle(.endOfStream(finalising: [0], at: at(1.1)))
        let second = machine.handle(.stopRequested(.signal, count: 2, at(1.2)))
        #expect(second.count == 1)
        let failure = GStreamerError.element(ElementFailure(source: "mux", domain: "stream", code: 1, message: "boom", debug: ""))
        let said = machine.handle(.failed(failure))
        guard case .report(.warning(let text))? = said.first else {
            Issue.record("an error while finalising is said: \(said)")
            return
        }
        #expect(text.contains("boom"))
        #expect(!machine.isDone)
        #expect(machine.handle(.stopRequested(.signal, count: 3, at(1.3))) == [.keepUnfinalised(.aborted, cause: "aborted")])

        var full = RecordingMachine(start: start)
        _ = full.handle(.endOfStream(finalising: [0], at: at(1)))
        #expect(full.handle(.diskFull) == [.keepUnfinalised(.diskFull, cause: "disk full")])
    }

    @Test func aCameraErrorWhileFinalisingIsNoNews() {
        var machine = RecordingMachine(start: start)
        _ = machine.handle(.limitReached(at(1)))
        _ = machine.handle(.endOfStream(finalising: [0], at: at(1.1)))
        let gone = ElementFailure(source: "src", domain: "gst-resource-error-quark", code: 9, message: "gone", debug: "")
        #expect(machine.handle(.cameraFailed(gone, framesRecorded: 30, at(1.2))) == [])
        #expect(machine.handle(.endOfStream(finalising: [0], at: at(1.3))) == [])
        #expect(machine.handle(.movieClosed(0, open: [0])) == [.commit(0), .applyRetention, .finish(requested: .maxDuration, message: nil)])
    }

    @Test func aCanvasThatLostACameraEndsAsCameraLostAfterItsMovies() {
        var machine = RecordingMachine(start: start, canvas: .init(cameras: 2, allOrNothing: false))
        _ = machine.handle(RecordingMachineTests.gone(1))
        _ = machine.handle(.stopRequested(.signal, count: 1, at(1)))
        _ = machine.handle(.endOfStream(finalising: [0], at: at(1.1)))
        #expect(machine.handle(.movieClosed(0, open: [0]))
                == [.commit(0), .applyRetention, .finish(requested: .cameraLost, message: "camera lost: camera 2 (/dev/video1): gone")])
    }
}

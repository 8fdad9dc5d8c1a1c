@testable import CamrecKit
@testable import Trim
import Foundation
import Synchronization
import Testing

/// Cancellation, the temporary file, and which progress reports are shown: plain values
/// first, then whole trims cancelled from their own progress reports.
@Suite("Trim control and progress", .serialized)
struct TrimControlTests {
    // MARK: Cancellation and the temporary file

    @Test func cancelRemovesTheTemporaryFileAndStopsTheCommit() throws {
        let media = try MediaFactory()
        let temporary = try media.file(".out.mp4.trim-1.part", bytes: [1, 2, 3])
        let control = TrimControl()
        control.track(temporaryPath: temporary)
        #expect(control.cancel(reason: "SIGTERM"))
        #expect(!FileManager.default.fileExists(atPath: temporary))
        #expect(control.isCancelled)
        #expect(!control.cancel(reason: "SIGINT"), "the first cancellation counts")
        var renamed = false
        #expect(throws: CamrecError.interrupted(by: "SIGTERM")) {
            try control.commit { renamed = true }
        }
        #expect(!renamed)
    }

    @Test func aCancellationAfterTheCommitIsTooLate() throws {
        let media = try MediaFactory()
        let temporary = try media.file(".out.mp4.trim-1.part", bytes: [1, 2, 3])
        let control = TrimControl()
        control.track(temporaryPath: temporary)
        try control.commit {}
        #expect(!control.cancel(reason: "SIGINT"))
        #expect(FileManager.default.fileExists(atPath: temporary), "the output is complete: nothing to remove")
        #expect(!control.isCancelled)
    }

    @Test func interruptedMapsToExitStatus130() {
        let error = CamrecError.interrupted(by: "SIGINT")
        #expect(error.status == .aborted)
        #expect(error.status.rawValue == 130)
        #expect(error.message.contains("SIGINT") && error.message.contains("nothing was written"))
    }

    // MARK: Which reports are shown

    static func writing(_ fraction: Double) -> TrimProgress {
        TrimProgress(phase: .writing, fraction: fraction, totalSeconds: 10)
    }

    @Test func nothingIsShownInTheFirstSecond() {
        var shown = false
        var gate = TrimProgressGate()
        shown = gate.admit(Self.writing(0.1), after: .milliseconds(200))
        #expect(!shown)
        shown = gate.admit(Self.writing(0.5), after: .milliseconds(999))
        #expect(!shown)
        shown = gate.admit(Self.writing(0.6), after: .seconds(1))
        #expect(shown)
    }

    @Test func thenAtMostOneReportPerInterval() {
        var shown = false
        var gate = TrimProgressGate(delay: .seconds(1), interval: .milliseconds(500))
        shown = gate.admit(Self.writing(0.2), after: .milliseconds(1000))
        #expect(shown)
        shown = gate.admit(Self.writing(0.3), after: .milliseconds(1200))
        #expect(!shown)
        shown = gate.admit(Self.writing(0.4), after: .milliseconds(1499))
        #expect(!shown)
        shown = gate.admit(Self.writing(0.45), after: .milliseconds(1500))
        #expect(shown)
    }

    @Test func aFractionThatDidNotGrowIsNotShownAgain() {
        var shown = false
        var gate = TrimProgressGate()
        shown = gate.admit(Self.writing(0.5), after: .seconds(2))
        #expect(shown)
        shown = gate.admit(Self.writing(0.5), after: .seconds(3))
        #expect(!shown)
        shown = gate.admit(Self.writing(0.4), after: .seconds(4))
        #expect(!shown)
        // A new phase starts again from 0.
        shown = gate.admit(TrimProgress(phase: .indexing, fraction: 0.1, totalSeconds: 10), after: .seconds(5))
        #expect(shown)
    }

    @Test func progressValuesAreClampedAndRounded() {
        let progress = TrimProgress(phase: .writing, done: 1_234_567_890, total: 4_000_000_000)
        #expect(progress.fraction == 0.308)
        #expect(progress.totalSeconds == 4)
        #expect(progress.doneSeconds == 1.234)
        #expect(TrimProgress(phase: .writing, fraction: 1.5, totalSeconds: 2).fraction == 1)
        #expect(TrimProgress(phase: .writing, fraction: .nan, totalSeconds: 2).fraction == 0)
        #expect(TrimProgress(phase: .indexing, done: 5, total: 0).fraction == 0)
    }

    // MARK: Whole trims, cancelled mid-write

    /// Cancels the trim from its first progress report of the writing phase: the trim must
    /// throw `interrupted` and leave nothing but the input behind.
    func cancelMidWrite(_ request: TrimRequest, in media: MediaFactory) throws {
        let before = try FileManager.default.contentsOfDirectory(atPath: media.folder.path).sorted()
        let holder = Mutex<TrimControl?>(nil)
        let reports = Mutex(0)
        let control = TrimControl { progress in
            guard progress.phase == .writing else { return }
            reports.withLock { $0 += 1 }
            holder.withLock { $0 }?.cancel(reason: "SIGINT")
        }
        holder.withLock { $0 = control }
        do {
            _ = try Trimmer.run(request, control: control)
            Issue.record("expected an interruption")
        } catch {
            #expect(error.kind == .interrupted, "\(error.message)")
            #expect(error.status == .aborted)
        }
        #expect(reports.withLock { $0 } >= 1)
        let after = try FileManager.default.contentsOfDirectory(atPath: media.folder.path).sorted()
        #expect(after == before, "left behind: \(after)")
    }

    @Test("a re-encode through GStreamer, cancelled mid-write, leaves nothing")
    func cancelReencode() throws {
        let media = try MediaFactory()
        let input = try media.camrecLike("in.mkv", seconds: 3)
        try cancelMidWrite(TrimRequest(input: input, start: .seconds(1), mode: .reencode), in: media)
    }

    @Test("an MP4 edge re-encode, cancelled mid-write, leaves nothing")
    func cancelMP4Accurate() throws {
        let media = try MediaFactory()
        let input = try media.camrecLike("in.mp4", seconds: 3)
        try cancelMidWrite(
            TrimRequest(input: input, start: .init(nanoseconds: 1_400_000_000), destination: .path(media.path("out.mp4"))),
            in: media
        )
    }
}

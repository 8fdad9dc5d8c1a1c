@testable import CamrecKit
import Testing

/// Issue 31 item 3: what happens between a run's pipelines (`--reconnect`) is decided by a
/// machine of values, tested here without a camera or GStreamer.
@Suite struct RunMachineTests {
    static let busy = CamrecError(.cameraBusy, "the camera is busy")

    @Test func aRunWithoutReconnectEndsWithItsPipeline() {
        var machine = RunMachine(reconnects: false)
        #expect(machine.handle(.pipelineEnded(.cameraLost, message: "camera lost: gone", stopAsked: false))
                == [.end(.cameraLost, message: "camera lost: gone")])
        #expect(machine.state == .done)
    }

    @Test func aLostCameraIsWaitedForAndTheRunGoesOn() {
        var machine = RunMachine(reconnects: true)
        #expect(machine.handle(.pipelineEnded(.cameraLost, message: "camera lost: gone", stopAsked: false))
                == [.waitForCamera(lost: "camera lost: gone")])
        #expect(machine.state == .waiting)
        #expect(machine.handle(.cameraBack(framesLeft: 40)) == [.startNext])
        #expect(machine.state == .running)
        #expect(machine.handle(.pipelineEnded(.maxDuration, message: nil, stopAsked: false)) == [.end(.maxDuration, message: nil)])
    }

    @Test func onlyALostCameraIsWaitedFor() {
        for reason in [StopReason.maxDuration, .signal, .control, .diskFull, .error] {
            var machine = RunMachine(reconnects: true)
            #expect(machine.handle(.pipelineEnded(reason, message: nil, stopAsked: false)) == [.end(reason, message: nil)])
        }
    }

    /// A stop asked for while the camera was being lost wins: nothing is waited for.
    @Test func aStopAskedForEndsTheRunInsteadOfWaiting() {
        var machine = RunMachine(reconnects: true)
        #expect(machine.handle(.pipelineEnded(.cameraLost, message: nil, stopAsked: true)) == [.end(.cameraLost, message: nil)])
        var waiting = RunMachine(reconnects: true)
        _ = waiting.handle(.pipelineEnded(.cameraLost, message: nil, stopAsked: false))
        #expect(waiting.handle(.waitStopped(.signal)) == [.end(.signal, message: "stopped while waiting for the camera to come back")])
    }

    @Test func aCameraNotBackInTimeEndsTheRunAsLost() {
        var machine = RunMachine(reconnects: true)
        _ = machine.handle(.pipelineEnded(.cameraLost, message: nil, stopAsked: false))
        #expect(machine.handle(.waitTimedOut(camera: "Cam (usb-1)", timeout: TimeSpec(nanoseconds: 5_000_000_000)))
                == [.end(.cameraLost, message: "the camera did not come back within 5s: Cam (usb-1)")])
    }

    @Test func aCameraBackWithNothingLeftOfTheLimitEndsTheRun() {
        var machine = RunMachine(reconnects: true)
        _ = machine.handle(.pipelineEnded(.cameraLost, message: nil, stopAsked: false))
        #expect(machine.handle(.cameraBack(framesLeft: 0)) == [.end(.maxDuration, message: nil)])
    }

    @Test func theFirstPipelineFailingFailsTheRun() {
        var machine = RunMachine(reconnects: true)
        #expect(machine.handle(.pipelineFailed(Self.busy, stopAsked: false)) == [.fail(Self.busy)])
    }

    /// A camera that comes back flaky is waited for again, a few times in a row.
    @Test func aFlakyCameraIsRetriedAFewTimes() {
        var machine = RunMachine(reconnects: true)
        _ = machine.handle(.pipelineEnded(.cameraLost, message: nil, stopAsked: false))
        var waits = 0
        for _ in 1..<RunMachine.failedRestartLimit {
            #expect(machine.handle(.cameraBack(framesLeft: nil)) == [.startNext])
            let actions = machine.handle(.pipelineFailed(Self.busy, stopAsked: false))
            if case .waitForCamera(let lost)? = actions.first, lost.contains("failed as it came back") { waits += 1 }
        }
        #expect(waits == RunMachine.failedRestartLimit - 1)
        _ = machine.handle(.cameraBack(framesLeft: nil))
        #expect(machine.handle(.pipelineFailed(Self.busy, stopAsked: false)) == [.end(.error, message: "the camera is busy")])
    }

    @Test func aPipelineThatRecordsResetsTheRetries() {
        var machine = RunMachine(reconnects: true)
        _ = machine.handle(.pipelineEnded(.cameraLost, message: nil, stopAsked: false))
        for _ in 0..<(RunMachine.failedRestartLimit * 2) {
            _ = machine.handle(.cameraBack(framesLeft: nil))
            _ = machine.handle(.pipelineFailed(Self.busy, stopAsked: false))
            _ = machine.handle(.cameraBack(framesLeft: nil))
            #expect(machine.handle(.pipelineEnded(.cameraLost, message: nil, stopAsked: false)) == [.waitForCamera(lost: "camera lost")])
        }
    }

    @Test func aNextMovieThatCannotBeClaimedEndsTheRun() {
        var machine = RunMachine(reconnects: true)
        _ = machine.handle(.pipelineEnded(.cameraLost, message: nil, stopAsked: false))
        _ = machine.handle(.cameraBack(framesLeft: nil))
        let full = CamrecError(.cannotCreateOutput, "no space")
        #expect(machine.handle(.nextMovieRefused(full)) == [.end(.error, message: "no space")])
    }
}

@testable import CamrecKit
import Testing

/// `--timelapse T`: its value, what it cannot go with (usage errors, exit 64), and what
/// the run is told.
struct TimeLapseOptionTests {
    func arguments(_ timelapse: String?) -> RecordArguments {
        var given = RecordArguments(camera: CameraRequest(devices: ["test"]), picture: RecordArgumentsTests.plainPicture,
                                    output: "movie.mp4")
        given.timelapse = timelapse
        return given
    }

    @Test func theIntervalGoesToTheRunAndNeedsEncoding() throws {
        #expect(try arguments(nil).job(environment: [:]).settings.timelapse == nil)
        let job = try arguments("500ms").job(environment: [:])
        #expect(job.settings.timelapse == TimeLapse(interval: TimeSpec(nanoseconds: 500_000_000)))
        #expect(job.settings.needsDecoding(composes: false) == ["--timelapse 500ms keeps one frame in many and retimes it"])
    }

    @Test func theValueIsAPositiveDuration() {
        #expect(refusal { try arguments("soon").job(environment: [:]) }?.hasPrefix("--timelapse: invalid duration 'soon'") == true)
        #expect(refusal { try arguments("0").job(environment: [:]) }?.hasPrefix("--timelapse 0 keeps no time between frames") == true)
        #expect(refusal { try arguments("-1").job(environment: [:]) }?.hasPrefix("--timelapse: invalid duration '-1'") == true)
    }

    @Test func soundClipsCopyAndServeAreRefused() {
        var given = arguments("10s")
        given.audio = "test"
        #expect(refusal { try given.job(environment: [:]) }?.hasPrefix("--timelapse 10s makes a silent movie") == true)
        given = arguments("10s")
        given.audio = "none"
        #expect((try? given.job(environment: [:])) != nil, "--audio none records no sound")
        for clips in [ClipRequest(onMotion: true), ClipRequest(postRoll: "2s"), ClipRequest(standby: true)] {
            given = arguments("10s")
            given.clips = clips
            #expect(refusal { try given.job(environment: [:]) }?.hasPrefix("--timelapse 10s cannot make event clips") == true, "\(clips)")
        }
        given = arguments("10s")
        given.codec = "copy"
        #expect(refusal { try given.job(environment: [:]) }?.contains("leave out --codec copy") == true)
        given = arguments("10s")
        given.serve = ServeRequest(serve: "0")
        #expect(refusal { try given.job(environment: [:]) }?.hasPrefix("--timelapse 10s cannot be served live") == true)
    }

    @Test func theIntervalMustBeLongerThanACameraFrame() throws {
        let lapse = TimeLapse(interval: TimeSpec(nanoseconds: 30_000_000))
        #expect(refusal { try lapse.check(cameraRate: FrameRateValue(30)) }
                == "--timelapse 30ms is not longer than one camera frame at 30 fps (0.033 s): give a longer interval, e.g. --timelapse 1s, or leave it out to record every frame")
        // One camera frame exactly keeps every frame: refused too.
        #expect(refusal { try TimeLapse(interval: TimeSpec(nanoseconds: 33_333_333)).check(cameraRate: FrameRateValue(30)) } != nil)
        try lapse.check(cameraRate: FrameRateValue(60))
        try TimeLapse(interval: TimeSpec(nanoseconds: 34_000_000)).check(cameraRate: FrameRateValue(30))
    }

    /// The run keeps round(limit / interval) frames: a limit under half an interval keeps none.
    @Test func theLimitMustHoldAFrame() throws {
        var given = arguments("1m")
        given.maxDuration = "29s"
        #expect(refusal { try given.job(environment: [:]) }
                == "--max-duration 29s keeps no frame of --timelapse 1m (one per 1m of capture time): give at least 30s, or a shorter interval")
        given.maxDuration = "30s"
        #expect(try given.job(environment: [:]).settings.maxDuration == .seconds(30))
        #expect(try given.job(environment: [:]).warnings.isEmpty)
        // The default limit is said: a time-lapse is for long runs.
        given.maxDuration = nil
        #expect(try given.job(environment: [:]).warnings
                == ["--timelapse 1m stops after the default --max-duration of 10m of capture time (10 frames): give --max-duration, e.g. 8h, or none to record until stopped"])
        given.maxDuration = "none"
        #expect(try given.job(environment: [:]).settings.maxDuration == nil)
    }

    @Test func theReportAndTheGrid() {
        let lapse = TimeLapse(interval: .seconds(10))
        #expect(lapse.speedUp(at: FrameRateValue(30)) == 300)
        #expect(lapse.captureRate == FrameRateValue(numerator: 1, denominator: 10))
        #expect(lapse.report(movieRate: FrameRateValue(25), framesKept: 7)
                == TimeLapseReport(interval: 10, speedup: 250, framesKept: 7))
        #expect(TimeLapse(interval: TimeSpec(nanoseconds: 200_000_000)).captureRate == FrameRateValue(5))
    }
}

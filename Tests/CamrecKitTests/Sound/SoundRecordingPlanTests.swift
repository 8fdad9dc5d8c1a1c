@testable import CamrecKit
import Foundation
import GStreamer
import Testing

/// What `--audio` asks for, the settings and pipeline branch it becomes, and the sound gate's
/// decisions, with plain values (no GStreamer, no sound server).
@Suite struct SoundRecordingPlanTests {
    static func passes(_ decision: AudioGate.Admission) -> Bool {
        decision != .drop
    }

    @Test func requestsAreReadAsPeopleWriteThem() {
        #expect(AudioRequest(parsing: "none") == AudioRequest.none)
        #expect(AudioRequest(parsing: "default") == .systemDefault)
        #expect(AudioRequest(parsing: "camera") == .camera)
        #expect(AudioRequest(parsing: "test") == .test)
        #expect(AudioRequest(parsing: "hw:1,0") == .alsa("hw:1,0"))
        #expect(AudioRequest(parsing: "plughw:CARD=C920,DEV=0") == .alsa("plughw:CARD=C920,DEV=0"))
        #expect(AudioRequest(parsing: "alsa_input.usb-046d_C920-02.analog-stereo") == .server("alsa_input.usb-046d_C920-02.analog-stereo"))
        #expect(AudioRequest(parsing: "vsink.monitor") == .server("vsink.monitor"))
        #expect(AudioRequest(parsing: "") == nil)
    }

    @Test func codecFollowsTheContainerAndKeepsTheSourcesChannelsAndRate() {
        let mono = AudioInput(element: .pulse(device: "mic"), channels: 1, rate: 44100, reason: "a mic")
        let aac = AudioSettings(input: mono, container: .mp4)
        #expect(aac.codec == .aac && aac.channels == 1 && aac.rate == 44100 && aac.bitrate == 96)
        let opus = AudioSettings(input: mono, container: .matroska, bitrate: 48)
        // Opus codes at 48 kHz: camrec resamples once
        #expect(opus.codec == .opus && opus.channels == 1 && opus.rate == 48000 && opus.bitrate == 48)
        let surround = AudioInput(element: .alsa(device: "hw:2,0"), channels: 6, rate: 22050, reason: "")
        let mov = AudioSettings(input: surround, container: .mov)
        #expect(mov.codec == .aac && mov.channels == 2 && mov.rate == 22050 && mov.bitrate == 128)
        let odd = AudioSettings(input: AudioInput(element: .test, rate: 37800, reason: ""), container: .mp4)
        #expect(odd.rate == 48000 && odd.channels == 2)
    }

    @Test func branchUsesTheNamedElementsCamrecFindsAndTheSystemClock() {
        let settings = AudioSettings(input: AudioInput(element: .pulse(device: "a b"), channels: 1, rate: 48000, reason: ""),
                                     container: .mp4)
        let branch = settings.branch(muxerPad: "mux.audio_0") { "'\($0)'" }
        #expect(branch.hasPrefix("pulsesrc name=audiosrc provide-clock=false slave-method=none device='a b' ! audio/x-raw,channels=1"))
        #expect(branch.contains("audiorate name=audiorate skip-to-first=true tolerance=5000000"))
        #expect(branch.contains("avenc_aac name=audioencoder bitrate=96000 ! mux.audio_0"))
        let alsa = AudioSettings(input: AudioInput(element: .alsa(device: "hw:1,0"), reason: ""), container: .matroska)
        #expect(alsa.sourceElement { $0 }.hasPrefix("alsasrc name=audiosrc provide-clock=false"))
        #expect(alsa.branch(muxerPad: "mux.audio_0") { $0 }.contains("opusenc name=audioencoder bitrate=96000"))
    }

    @Test func recordPipelineHasTheSoundBranchOnlyWhenAsked() throws {
        var config = RecordConfig(source: .testPattern, size: RecordConfig.defaultTestSize, rate: RecordConfig.defaultTestRate,
                                  maxDuration: .seconds(5), outputPath: "out.mp4", container: .mp4, overwrite: false,
                                  encoder: EncoderSettings())
        #expect(try !RecordPipeline(config: config).description(location: "o.mp4").contains("audiosrc"))
        config.audio = AudioSettings(input: AudioInput(element: .test, channels: 1, rate: 48000, reason: ""), container: .mp4)
        let line = try RecordPipeline(config: config).description(location: "o.mp4")
        #expect(line.contains("audiotestsrc name=audiosrc is-live=true") && line.hasSuffix("! mux.audio_0"))
        // a template written before {audio} existed: silent movies still work, sound is refused
        let old = PipelineTemplate(text: PipelineTemplate.record.text.replacing("{audio}", with: ""))
        #expect(throws: TemplateError.self) { try RecordPipeline(config: config, template: old).description(location: "o.mp4") }
        config.audio = nil
        #expect(try RecordPipeline(config: config, template: old).description(location: "o.mp4").contains("mp4mux"))
    }

    @Test func soundBelongsFromTheFirstFrameToTheEndOfTheLastToTheSample() {
        var window = SoundWindow()
        #expect(window.decide(pts: 0, duration: 10_000_000) == .wait)
        window.start = 1_000_000_000
        #expect(window.decide(pts: 980_000_000, duration: 10_000_000) == .before)
        #expect(window.decide(pts: 990_000_000, duration: 10_000_000) == .before)   // ends where the movie starts
        // a buffer straddling the start keeps the sound from the first frame on
        #expect(window.decide(pts: 996_000_000, duration: 10_000_000) == .part(1_000_000_000..<1_006_000_000))
        #expect(window.decide(pts: 1_000_000_000, duration: 10_000_000) == .pass)
        #expect(window.decide(pts: 5_000_000_000, duration: 10_000_000) == .pass)
        window.end = 3_000_000_000
        #expect(window.decide(pts: 2_990_000_000, duration: 10_000_000) == .pass)   // ends where the movie ends
        // a buffer straddling the end keeps the sound up to the last frame's end
        #expect(window.decide(pts: 2_994_000_000, duration: 10_000_000) == .part(2_994_000_000..<3_000_000_000))
        #expect(window.decide(pts: 3_000_000_000, duration: 10_000_000) == .after)
        // a buffer of unknown length is judged by its start
        #expect(window.decide(pts: 999_000_000, duration: 0) == .before)
        #expect(window.decide(pts: 2_999_000_000, duration: 0) == .pass)
        // with a limit the end is known from the first frame
        var limited = SoundWindow(length: 2_000_000_000)
        limited.start = 1_000_000_000
        #expect(limited.decide(pts: 2_996_000_000, duration: 10_000_000) == .part(2_996_000_000..<3_000_000_000))
        #expect(limited.decide(pts: 3_000_000_000, duration: 10_000_000) == .after)
        // a movie shorter than one buffer: both ends inside it
        var tiny = SoundWindow(length: 4_000_000)
        tiny.start = 1_003_000_000
        #expect(tiny.decide(pts: 1_000_000_000, duration: 10_000_000) == .part(1_003_000_000..<1_007_000_000))
    }

    @Test func aCutKeepsWholeFramesRoundedToTheNearest() {
        // 48 kHz: 6 ms is 288 frames; the 10-ms buffer has 480
        #expect(SampleCut(pts: 996_000_000, kept: 1_000_000_000..<1_006_000_000, rate: 48000) == SampleCut(skip: 192, keep: 288))
        #expect(SampleCut(pts: 2_994_000_000, kept: 2_994_000_000..<3_000_000_000, rate: 48000) == SampleCut(skip: 0, keep: 288))
        // a frame lasts 20.83 µs: an end 10 µs into it rounds down, 11 µs up
        #expect(SampleCut(pts: 0, kept: 0..<10_000, rate: 48000) == nil)
        #expect(SampleCut(pts: 0, kept: 0..<11_000, rate: 48000) == SampleCut(skip: 0, keep: 1))
        // two cuts meeting at one instant share no frame and lose none
        let head = SampleCut(pts: 0, kept: 0..<3_333_333, rate: 44100)
        let tail = SampleCut(pts: 0, kept: 3_333_333..<10_000_000, rate: 44100)
        #expect(head.map { $0.skip + $0.keep } == tail?.skip)
        #expect(SampleCut(pts: 10, kept: 5..<20, rate: 48000) == nil)   // starts before the buffer
        #expect(SampleCut(pts: 0, kept: 0..<10_000_000, rate: 0) == nil)
    }

    @Test func theMovieStartsWithTheFirstFrameAfterTheFirstSound() {
        let gate = AudioGate(length: nil)
        let start = ContinuousClock.now
        #expect(gate.mayStart(at: 100, now: start) == .hold)   // no sound yet
        #expect(gate.mayStart(at: 200, now: start + .seconds(4)) == .hold)
        // no sound within the timeout: the movie starts without it
        #expect(gate.mayStart(at: 300, now: start + .seconds(6)) == .goWithoutSound)
        #expect(gate.mayStart(at: 400, now: start + .seconds(6)) == .go)
        #expect(!Self.passes(gate.admit(pts: 400, duration: 10)))   // given up: no sound goes in

        let sounding = AudioGate(length: 1_000_000_000)
        sounding.release()   // nothing may wait in this test
        _ = sounding.admit(pts: 5_000, duration: 10_000_000)   // the first sound, before any frame
        #expect(sounding.mayStart(at: 4_000) == .go)   // released: frames are never held back
    }

    @Test func heldFramesWaitForTheFirstSoundsTime() {
        let gate = AudioGate(length: 1_000_000_000)
        // the first sound arrives while no frame has started the movie: it waits for one (on a
        // thread of its own, as on the sound branch's streaming thread), and the frame before
        // it is held back
        let first = Thread { _ = gate.admit(pts: 50_000_000, duration: 10_000_000) }
        first.start()
        let arrived = Wait.until { gate.mayStart(at: 40_000_000) == .hold && gate.mayStart(at: 60_000_000) == .go }
        #expect(arrived)
        gate.videoStarted(at: 60_000_000)
        gate.release()
        _ = first
        #expect(gate.hasStarted)
        #expect(Self.passes(gate.admit(pts: 1_000_000_000, duration: 10_000_000)))
        #expect(!Self.passes(gate.admit(pts: 1_060_000_000, duration: 10_000_000)))   // past first + length
        #expect(gate.isComplete)
    }
}

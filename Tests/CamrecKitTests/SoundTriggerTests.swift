import Testing
@testable import CamrecKit
@testable import CamrecCore

/// `--on-sound LEVEL[:T]`: the option's forms and refusals, and when a stream of measured
/// levels triggers (and extends) a clip.
@Suite struct SoundTriggerTests {
    private let ms: UInt64 = 1_000_000

    @Test func levelsAndTimesAreParsedAndBadOnesRefusedWithAnExample() throws {
        #expect(try SoundTriggerSettings.parse("-30") == SoundTriggerSettings(level: -30, hold: 200 * ms))
        #expect(try SoundTriggerSettings.parse("-30dB") == SoundTriggerSettings(level: -30, hold: 200 * ms))
        #expect(try SoundTriggerSettings.parse("-22.5dBFS:1s") == SoundTriggerSettings(level: -22.5, hold: 1000 * ms))
        #expect(try SoundTriggerSettings.parse("0:50ms") == SoundTriggerSettings(level: 0, hold: 50 * ms))
        for (text, said) in [("loud", "e.g. --on-sound -30"), ("10", "from -100"), ("-120", "from -100"), ("-30:", "after the colon"),
                             ("-30:soon", "after the colon"), ("-30:10ms", "at least 50ms"), ("", "e.g. --on-sound -30")] {
            #expect {
                try SoundTriggerSettings.parse(text)
            } throws: { error in
                (error as? CamrecError)?.kind == .usage && (error as? CamrecError)?.message.contains(said) == true
            }
        }
    }

    @Test func sustainedLoudSoundTriggersAtItsOnsetOnceThenExtends() {
        var trigger = SoundTrigger(SoundTriggerSettings(level: -30, hold: 200 * ms))
        var outcomes: [UInt64: SoundTrigger.Outcome] = [:]
        // 1 s quiet, 2 s loud (rising to -12), 1 s quiet, 100 ms loud (too short), quiet, loud again.
        func level(_ t: UInt64) -> Double {
            switch t {
            case 1000 * ms ..< 3000 * ms: t < 1500 * ms ? -20 : -12
            case 4000 * ms ..< 4100 * ms: -10
            case 5000 * ms ..< 5400 * ms: -25
            default: -60
            }
        }
        for step in 0..<120 {
            let time = UInt64(step) * 50 * ms
            if let outcome = trigger.feed(time: time, duration: 50 * ms, level: level(time)) { outcomes[time] = outcome }
        }
        let triggers = outcomes.sorted { $0.key < $1.key }.compactMap { if case .trigger(let t) = $0.value { t } else { nil } }
        // The onset of each loud stretch that lasted 200 ms; the blip makes none.
        #expect(triggers == [SoundTrigger.Trigger(onset: 1000 * ms, confirmed: 1200 * ms, level: -20), SoundTrigger.Trigger(onset: 5000 * ms, confirmed: 5200 * ms, level: -25)])
        // Confirmed once 200 ms of it were heard, not before.
        #expect(outcomes[1150 * ms] == .trigger(SoundTrigger.Trigger(onset: 1000 * ms, confirmed: 1200 * ms, level: -20)))
        // While the first stays loud: an extension every half second, to its time, none after.
        let extensions = outcomes.sorted { $0.key < $1.key }.compactMap { if case .stillLoud(let t) = $0.value { t } else { nil } }
        #expect(extensions == [1700 * ms, 2200 * ms, 2700 * ms], "\(extensions)")
    }

    @Test func levelAtTheThresholdCountsAsLoudAndBelowResetsTheStretch() {
        var trigger = SoundTrigger(SoundTriggerSettings(level: -30, hold: 100 * ms))
        #expect(trigger.feed(time: 0, duration: 50 * ms, level: -30) == nil)
        // A dip below the level starts the count again.
        #expect(trigger.feed(time: 50 * ms, duration: 50 * ms, level: -30.1) == nil)
        #expect(trigger.feed(time: 100 * ms, duration: 50 * ms, level: -29) == nil)
        #expect(trigger.feed(time: 150 * ms, duration: 50 * ms, level: -29) == .trigger(SoundTrigger.Trigger(onset: 100 * ms, confirmed: 200 * ms, level: -29)))
    }

    @Test func onSoundNeedsTheRunsSound() throws {
        var request = ClipRequest()
        request.onSound = "-30"
        #expect(request.isWanted)
        #expect(try request.soundTrigger(hasSound: true) == SoundTriggerSettings(level: -30))
        #expect {
            try request.soundTrigger(hasSound: false)
        } throws: { error in
            (error as? CamrecError)?.message.contains("add --audio") == true
        }
        // It enables clips by itself.
        #expect(try request.resolve(output: "door.mp4", container: .mp4, utc: false).settings != nil)
    }
}

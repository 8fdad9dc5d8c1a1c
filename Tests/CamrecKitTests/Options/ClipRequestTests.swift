@testable import CamrecKit
import Testing

/// The event-clip options as given, typed by `ClipRequest` without a command line.
struct ClipRequestTests {
    func resolve(_ request: ClipRequest, output: String = "movie.mp4", container: MediaContainer = .mp4,
                 utc: Bool = false) throws -> (settings: ClipSettings?, motion: MotionSettings?) {
        try request.resolve(output: output, container: container, utc: utc)
    }

    @Test func noClipOptionMakesNoClips() throws {
        let request = ClipRequest()
        #expect(!request.isWanted)
        let (settings, motion) = try resolve(request)
        #expect(settings == nil && motion == nil)
    }

    @Test func anyClipOptionEnablesClipsWithTheDefaults() throws {
        let requests = [ClipRequest(preRoll: "5s"), ClipRequest(postRoll: "3s"), ClipRequest(maxClip: "1m"),
                        ClipRequest(pattern: "clips/%Y%m%d-%H%M%S.mp4"), ClipRequest(standby: true), ClipRequest(onMotion: true),
                        ClipRequest(livePhoto: true)]
        for request in requests {
            #expect(request.isWanted, "\(request)")
            #expect(try resolve(request).settings != nil, "\(request)")
        }
        let settings = try #require(try resolve(ClipRequest(preRoll: "5s")).settings)
        #expect(settings.preRoll == .seconds(5) && settings.postRoll == ClipSettings.defaultPostRoll
                && settings.maxClip == ClipSettings.defaultMaxClip)
        #expect(try resolve(ClipRequest(livePhoto: true)).settings?.livePhoto == true)
        // The motion options alone ask for clips (and are then refused without --on-motion).
        #expect(ClipRequest(motionSensitivity: "0.5").isWanted && ClipRequest(motionMask: "m.png").isWanted)
    }

    @Test func lengthsAreCheckedAndNamedByTheirOption() {
        #expect(refusal { try resolve(ClipRequest(preRoll: "-1")) }?.hasPrefix("--pre-roll: invalid duration '-1'") == true)
        #expect(refusal { try resolve(ClipRequest(postRoll: "x")) }?.hasPrefix("--post-roll: invalid duration 'x'") == true)
        #expect(refusal { try resolve(ClipRequest(maxClip: "0")) } == "--max-clip: give a length above 0, e.g. 2m")
        #expect(refusal { try resolve(ClipRequest(preRoll: "0", postRoll: "0")) }
                == "--pre-roll and --post-roll are both 0: a clip would be empty; give one of them a length, e.g. --post-roll 10s")
        #expect(refusal { try resolve(ClipRequest(postRoll: "0")) }?.contains("are both 0") == true)
    }

    @Test func aClipStartsAtTheKeyframeUnlessAskedForTheExactFrame() throws {
        #expect(try resolve(ClipRequest(preRoll: "5s")).settings?.start == .keyframe)
        var exact = ClipRequest(preRoll: "5s")
        exact.start = "exact"
        #expect(try resolve(exact).settings?.start == .exact)
        // Like --max-clip, it asks for clips on its own.
        var alone = ClipRequest()
        alone.start = "keyframe"
        #expect(alone.isWanted)
        #expect(try resolve(alone).settings?.start == .keyframe)
        for bad in ["Keyframe", "accurate", ""] {
            var request = ClipRequest(preRoll: "5s")
            request.start = bad
            #expect(refusal { try resolve(request) } == "--clip-start: give exact or keyframe", "\(bad)")
        }
    }

    @Test func zeroIsALengthForTheRolls() throws {
        let settings = try #require(try resolve(ClipRequest(preRoll: "0", postRoll: "4s")).settings)
        #expect(settings.preRoll == .zero && settings.postRoll == .seconds(4))
    }

    @Test func theClipsPatternIsWrittenLikeTheMovie() throws {
        #expect(refusal { try resolve(ClipRequest(pattern: "clips/c-%04d.mkv")) }
                == "--clips clips/c-%04d.mkv: clips are written like the movie: end the pattern with .mp4")
        #expect(refusal { try resolve(ClipRequest(pattern: "%Y/c.mp4")) }
                == "--clips: '%Y/c.mp4': time fields and counters are allowed in the file name only, not in the folder")
        let pattern = try #require(try resolve(ClipRequest(pattern: "clip-%H%M.mp4"), utc: true).settings?.pattern)
        #expect(pattern == (try SegmentNaming(output: "clip-%H%M.mp4", utc: true)))
    }

    @Test func theMotionOptionsNeedOnMotion() throws {
        #expect(refusal { try resolve(ClipRequest(motionSensitivity: "0.3")) } == "--motion-sensitivity needs --on-motion")
        #expect(refusal { try resolve(ClipRequest(motionMask: "mask.png")) } == "--motion-mask needs --on-motion")
        for bad in ["2", "-0.1", "much"] {
            #expect(refusal { try resolve(ClipRequest(onMotion: true, motionSensitivity: bad)) }
                    == "--motion-sensitivity: give a number from 0 to 1, e.g. 0.5", "\(bad)")
        }
        #expect(try resolve(ClipRequest(onMotion: true)).motion == MotionSettings(sensitivity: 0.5))
        #expect(try resolve(ClipRequest(onMotion: true, motionSensitivity: "0.8")).motion == MotionSettings(sensitivity: 0.8))
    }
}

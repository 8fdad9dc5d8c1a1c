@testable import CamrecKit
import CamrecCore
import GStreamer
import Testing

/// A movie as a source (`--device file:PATH`) without GStreamer: the `--device` form, the
/// checks of what the discoverer found, the frames chosen, and the recording machine's
/// end of a movie.
@Suite struct MovieSourceUnitTests {
    let start = ContinuousClock.now

    func at(_ seconds: Double) -> ContinuousClock.Instant { start + .milliseconds(Int(seconds * 1000)) }

    static func video(_ width: Int = 640, _ height: Int = 360, rate: (Int, Int) = (30, 1), image: Bool = false) -> DiscoveredMedia.Video {
        DiscoveredMedia.Video(caps: "video/x-h264", width: width, height: height, rateNumerator: rate.0, rateDenominator: rate.1,
                              isImage: image)
    }

    @Test func deviceForms() throws {
        #expect(try MovieSource.path(inDevice: "file:clip.mp4") == "clip.mp4")
        #expect(try MovieSource.path(inDevice: "file:/a b/c.mkv") == "/a b/c.mkv")
        #expect(try MovieSource.path(inDevice: "/dev/video0") == nil)
        #expect(try MovieSource.path(inDevice: "test") == nil)
        #expect(throws: CamrecError.self) { try MovieSource.path(inDevice: "file:") }
        do throws(CamrecError) {
            _ = try MovieSource.path(inDevice: "file:")
        } catch {
            #expect(error.status == .usage && error.message.contains("--device file:clip.mp4"))
        }
    }

    /// Each discoverer outcome becomes its exit status and an actionable message.
    @Test func whatCannotBePlayed() {
        let h265 = "gstreamer|1.0|camrec|H.265 (Main Profile) decoder|decoder-video/x-h265, alignment=(string)au"
        let aac = "gstreamer|1.0|camrec|MPEG-4 AAC decoder|decoder-audio/mpeg, mpegversion=(int)4"
        let cases: [(DiscoveredMedia, CamrecCore.ExitStatus, String)] = [
            (DiscoveredMedia(outcome: .unreadable("Could not determine type of stream.")), .invalidInput,
             "is not a movie GStreamer can read (Could not determine type of stream): give an MP4"),
            (DiscoveredMedia(outcome: .timedOut), .invalidInput, "could not read it within 10 s"),
            (DiscoveredMedia(outcome: .readable, sounds: ["audio/mpeg"]), .invalidInput, "has no video track (only sound)"),
            (DiscoveredMedia(outcome: .readable), .invalidInput, "has no video track: give"),
            (DiscoveredMedia(outcome: .readable, videos: [Self.video(image: true)]), .invalidInput, "is a still picture"),
            (DiscoveredMedia(outcome: .readable, videos: [Self.video(0, 0)]), .invalidInput, "says no picture size"),
            (DiscoveredMedia(outcome: .missingPlugins([h265]), videos: [Self.video()]), .unavailable,
             "needs a GStreamer plugin that is not installed (H.265 (Main Profile) decoder): install it with: sudo apt-get install gstreamer1.0-libav"),
        ]
        for (media, status, says) in cases {
            do throws(CamrecError) {
                _ = try MovieProbe.check(media, path: "m.mp4")
                Issue.record("\(media) was accepted")
            } catch {
                #expect(error.status == status && error.message.contains(says), "\(media): \(error.message)")
                #expect(error.message.hasPrefix("--device file:m.mp4"))
            }
        }
        // A sound track without a decoder leaves the picture playable.
        let soundless = DiscoveredMedia(outcome: .missingPlugins([aac]), videos: [Self.video()], sounds: ["audio/mpeg"])
        #expect((try? MovieProbe.check(soundless, path: "m.mp4")) == Self.video())
    }

    @Test func missingPluginDetails() {
        let plugin = MovieProbe.MissingPlugin("gstreamer|1.0|camrec|VP9 decoder|decoder-video/x-vp9")
        #expect(plugin.description == "VP9 decoder" && plugin.mediaType == "video/x-vp9" && !plugin.isSound)
        #expect(PluginPackages.decoderPackage(for: "video/x-vp9") == "gstreamer1.0-plugins-good")
        #expect(PluginPackages.decoderPackage(for: "video/x-h265") == "gstreamer1.0-libav")
        #expect(MovieProbe.MissingPlugin("gstreamer|1.0|camrec|AAC|decoder-audio/mpeg, mpegversion=(int)4").isSound)
    }

    /// The frames chosen: the movie's own size (even) and rate, or --size and --fps; a
    /// movie without a steady rate plays at 30 fps, made steady.
    @Test func framesChosen() {
        let media = DiscoveredMedia(outcome: .readable, videos: [Self.video(641, 361)], sounds: ["audio/mpeg"], duration: 2_500_000_000)
        func movie(_ video: DiscoveredMedia.Video, size: FrameSize? = nil, rate: FrameRateValue? = nil) -> MovieSource? {
            MovieProbe.resolution(video, media: media, path: "/m/a.mp4", given: "a.mp4", size: size, rate: rate).source.movie
        }
        let own = movie(Self.video(641, 361))
        #expect(own?.format.size == FrameSize(width: 640, height: 360) && own?.format.rate == FrameRateValue(numerator: 30, denominator: 1))
        #expect(own?.changesRate == false && own?.hasSound == true && own?.duration == 2.5 && own?.deviceName == "file:/m/a.mp4")
        #expect(own?.format.caps == "video/x-raw,format=I420,width=640,height=360,framerate=30/1,pixel-aspect-ratio=1/1")
        let asked = movie(Self.video(), size: FrameSize(width: 320, height: 180), rate: FrameRateValue(numerator: 15, denominator: 1))
        #expect(asked?.format.size == FrameSize(width: 320, height: 180) && asked?.changesRate == true)
        #expect(asked?.format.reason == "scaled from the movie's 640x360, 15 fps made from its 30")
        let variable = movie(Self.video(rate: (0, 1)))
        #expect(variable?.format.rate == MovieProbe.defaultRate && variable?.changesRate == true)
        #expect(MovieFeeder.caps(own!) == "video/x-raw,format=I420,width=640,height=360,pixel-aspect-ratio=1/1")
        #expect(MovieFeeder.caps(asked!) == asked?.format.caps)
    }

    @Test func pathsInURIs() {
        #expect(MovieProbe.percentEncoded("/tmp/a b/ü#1.mp4") == "/tmp/a%20b/%C3%BC%231.mp4")
        #expect(MovieProbe.percentEncoded("/plain/clip-1_2.mkv") == "/plain/clip-1_2.mkv")
    }

    /// The movie's end, as the one source: its end of stream already flows, so no EOS is
    /// sent (the muxer would finalise twice), the sound ends at the last frame, and the run
    /// finishes as source-ended.
    @Test func theMovieEndsTheRecording() {
        var machine = RecordingMachine(start: start)
        #expect(machine.handle(.sourceEnded(message: nil, endsItself: true, at(3)))
            == [.endSoundAtLastFrame, .report(.stopping(.sourceEnded))])
        #expect(machine.handle(.sourceEnded(message: nil, endsItself: true, at(3.1))) == [])
        #expect(machine.handle(.endOfStream()) == [.finish(requested: .sourceEnded, message: nil)])
    }

    /// On a canvas the movie ends only its cell: the others are sent EOS.
    @Test func aCanvasMovieEndsTheCanvas() {
        var machine = RecordingMachine(start: start, canvas: .init(cameras: 2, allOrNothing: false))
        #expect(machine.handle(.sourceEnded(message: nil, endsItself: false, at(3)))
            == [.report(.stopping(.sourceEnded)), .sendEndOfStream])
        #expect(machine.handle(.endOfStream()) == [.finish(requested: .sourceEnded, message: nil)])
    }

    /// A movie that fails mid-way is said, finalised, and the result carries why.
    @Test func aMovieThatFailsMidWay() {
        var machine = RecordingMachine(start: start)
        let actions = machine.handle(.sourceEnded(message: "--device file:a.mp4: the movie failed to play on: x", endsItself: true, at(2)))
        #expect(actions == [.report(.warning("--device file:a.mp4: the movie failed to play on: x: finalising the recording so far")),
                            .endSoundAtLastFrame, .report(.stopping(.sourceEnded))])
        #expect(machine.handle(.endOfStream()) == [.finish(requested: .sourceEnded, message: "--device file:a.mp4: the movie failed to play on: x")])
        // A stop already under way is not turned into source-ended.
        var stopping = RecordingMachine(start: start)
        _ = stopping.handle(.limitReached(at(1)))
        #expect(stopping.handle(.sourceEnded(message: nil, endsItself: true, at(1.1))) == [])
    }

    @Test func exitStatusOfTheEnd() {
        #expect(RecordingResult(reason: .sourceEnded, files: [], droppedFrames: 0, corruptFrames: 0).exitStatus == .success)
        #expect(RecordingResult(reason: .sourceEnded, files: [], droppedFrames: 0, corruptFrames: 0, message: "failed").exitStatus == .invalidInput)
    }

    /// `camrec react --mix VIDEO:CAMERA`: dB to linear gains; bad forms refused.
    @Test func soundMix() throws {
        #expect(SoundMix.standard.movieGain == 0.5012 && SoundMix.standard.microphoneGain == 1)
        let mix = try SoundMix.parse("-12:3dB")
        #expect(mix.movieGain == 0.2512 && mix.microphoneGain == 1.4125)
        for bad in ["-6", "-6:0:1", "a:b", "-70:0", "0:13", ""] {
            #expect(throws: ValueError.self, "\(bad)") { try SoundMix.parse(bad) }
        }
    }

    /// The mixed sound's pipeline: the movie's appsrc through its gain into the mixer, the
    /// microphone (slaved to the clock) through its gain into it too.
    @Test func mixedSoundBranch() {
        let input = AudioInput(element: .mix(moviePath: "/m/a.mp4", microphone: .test, movieGain: 0.5, microphoneGain: 1),
                               channels: 2, rate: 48000, reason: "")
        let branch = AudioSettings(input: input, container: .mp4).branch(muxerPad: "mux.audio_0") { $0 }
        #expect(branch.hasPrefix("appsrc name=audiosrc is-live=true"))
        #expect(branch.contains("! volume name=moviegain volume=0.5 ! audiomixer name=soundmix ! audio/x-raw,channels=2 ! queue name=audioqueue"))
        #expect(branch.hasSuffix("audiotestsrc name=micsrc is-live=true wave=sine freq=440 volume=0.2 samplesperbuffer=480 ! queue name=micqueue max-size-buffers=0 max-size-bytes=0 max-size-time=1000000000 ! audioconvert ! audioresample ! audio/x-raw,format=S16LE,layout=interleaved,rate=48000,channels=2 ! volume name=micgain volume=1.0 ! soundmix."))
        #expect(input.deviceName == "file:/m/a.mp4+test")
    }
}

@testable import CamrecKit
import Foundation
import Testing

/// The record command's options as given, turned into a `RecordJob` by `RecordArguments`:
/// the rules between options, the order refusals are found in, and where each value goes.
struct RecordArgumentsTests {
    static let plainPicture = PictureRequest(orientation: Orientation(), text: nil, textPosition: .defaultText,
                                             imagePath: nil, imagePosition: .defaultImage)

    func arguments(_ output: String? = "movie.mp4") -> RecordArguments {
        RecordArguments(camera: CameraRequest(devices: ["test"]), picture: Self.plainPicture, output: output)
    }

    @Test func theDefaults() throws {
        let job = try arguments().job(environment: [:])
        #expect(job.request.output == "movie.mp4" && job.request.devices == ["test"])
        #expect(job.settings.maxDuration == MaxDuration.defaultLimit && job.settings.container == .mp4)
        #expect(job.settings.encoding == EncodingRequest(keyframeInterval: 1))
        #expect(job.request.segments == nil && job.request.clips == nil && job.settings.reconnect == nil)
        #expect(job.audio == .none && job.preview.mode == .off && job.settings.serve == nil && job.controlPath == nil)
        #expect(job.request.stills == (try StillSettings.resolve(pattern: nil, format: nil, every: nil, moviePath: "movie.mp4")))
        #expect(job.settings.template.text == PipelineTemplate.record.text && !job.request.customPipeline)
        #expect(job.request.settle == .zero && !job.request.force && !job.printPipeline && !job.stillQualityGiven)
    }

    @Test func valuesGoWhereTheRunReadsThem() throws {
        var given = arguments("cam.mkv")
        (given.codec, given.quality, given.bitrate) = ("h264", "high", "2M")
        (given.audio, given.audioBitrate) = ("test", "64k")
        (given.preview, given.previewStops) = (true, true)
        given.serve = ServeRequest(serve: "0")
        given.maxDuration = "none"
        given.clips = ClipRequest(postRoll: "5s", onMotion: true, motionMask: "mask.png")
        given.unattended = UnattendedRequest(segment: "1m", keep: "3", reconnect: true, recoverPartials: true)
        (given.stillFormat, given.stillQuality, given.stillEvery) = ("png", "50", "10s")
        given.control = "/tmp/camrec.sock"
        given.layout = LayoutRequest(layout: "stacked")
        (given.outputPerDevice, given.allOrNothing) = (true, true)
        (given.sets, given.flash, given.keepControls) = (["brightness=60"], "on", true)
        (given.settle, given.force, given.printPipeline) = ("2s", true, true)
        let job = try given.job(environment: [:])
        #expect(job.settings.container == .matroska && job.settings.maxDuration == nil && job.settings.overwrite)
        #expect(job.settings.encoding == EncodingRequest(codec: .encode(.h264), quality: .high, bitrate: 2000,
                                                         keyframeInterval: 0.5, qualityGiven: true))
        #expect(job.audio == .test && job.audioBitrate == 64)
        #expect(job.preview == PreviewRequest(mode: .required, stops: true) && job.request.preview && job.settings.preview != nil)
        #expect(job.settings.serve?.port == 0 && job.request.serve)
        #expect(job.request.clips?.postRoll == .seconds(5) && job.settings.motion != nil && job.settings.motionMask == "mask.png")
        #expect(job.request.segments?.length == .minutes(1) && job.request.segmentGiven)
        #expect(job.request.retention == RetentionPolicy(keep: 3) && job.settings.reconnect != nil && job.settings.recoverPartials)
        // Stills beside a segmented run are named after the series' plain name.
        #expect(job.request.stills.format == .png && job.request.stills.every == .seconds(10) && job.stillQualityGiven)
        #expect(job.controlPath == "/tmp/camrec.sock")
        #expect(job.request.layout == .stacked && job.request.canvas == CanvasLayout.defaultCanvas)
        #expect(job.request.outputPerDevice && job.request.allOrNothing)
        #expect(job.controls.assignments.count == 1 && job.controls.flash != nil && job.controls.keepControls)
        #expect(job.request.settle == .seconds(2) && job.settings.settle == .seconds(2) && job.printPipeline && job.request.force)
    }

    /// `--on-sound` listens to the recording's sound: without `--audio` it is refused (the
    /// check compared a non-optional source with nil, which always passed).
    @Test func onSoundNeedsTheRecordingsSound() throws {
        var given = arguments()
        given.clips.onSound = "-30"
        given.clips.preRoll = "1s"
        do {
            _ = try given.job(environment: [:])
            Issue.record("--on-sound without --audio was accepted")
        } catch {
            #expect(error.message.hasPrefix("--on-sound listens to the recording's sound: add --audio SOURCE"), "\(error.message)")
            #expect(error.kind == .usage)
        }
        given.audio = "none"
        #expect(throws: CamrecError.self) { try given.job(environment: [:]) }
        given.audio = "test"
        #expect(try given.job(environment: [:]).request.clips != nil)
    }

    @Test func standbyMakesNoMovieSeriesAndTakesNoSegment() throws {
        var given = arguments()
        given.clips = ClipRequest(standby: true)
        given.unattended = UnattendedRequest(reconnect: true)
        let job = try given.job(environment: [:])
        #expect(job.request.standby && job.request.segments == nil && job.settings.reconnect != nil)
        // Keyframes as for one movie: standby cuts no series.
        #expect(job.settings.encoding.keyframeInterval == 1)
        given.unattended.segment = "1m"
        #expect(refusal { try given.job(environment: [:]) }
                == "--standby records no movie, so --segment does not apply to it: leave it out, or record continuously with clips instead")
    }

    @Test func theOutputIsNeededAndNamesTheContainer() {
        #expect(refusal { try arguments(nil).job(environment: [:]) }
                == "missing OUTPUT: give the movie to write, e.g. camrec out.mp4 (see camrec --help)")
        #expect(refusal { try arguments("movie.avi").job(environment: [:]) }
                == "cannot tell the format of 'movie.avi': end OUTPUT with .mp4, .mov or .mkv")
        var given = arguments()
        given.control = "movie.mp4"
        #expect(refusal { try given.job(environment: [:]) }
                == "--control movie.mp4 is OUTPUT too: give the control socket another path, e.g. /tmp/camrec.sock")
        given = arguments()
        given.maxDuration = "-1"
        #expect(refusal { try given.job(environment: [:]) }?.hasPrefix("--max-duration: ") == true)
    }

    @Test func aPipelineTemplateIsReadFromItsFile() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("camrec-args-\(UUID().uuidString).pipeline")
        try Data("videotestsrc ! fakesink\n".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        var given = arguments()
        given.pipeline = file.path
        let job = try given.job(environment: [:])
        #expect(job.settings.template.text == "videotestsrc ! fakesink\n" && job.request.customPipeline)
        given.pipeline = file.path + ".missing"
        #expect(refusal { try given.job(environment: [:]) }
                == "--pipeline \(file.path).missing: cannot read it: give a readable text file like pipelines/record.pipeline")
    }

    @Test func controlsAndSettleAreChecked() {
        var given = arguments()
        given.flash = "blink"
        #expect(refusal { try given.job(environment: [:]) } == "--flash: 'blink' is not a flash mode: use on, off or auto")
        given = arguments()
        given.settle = "x"
        #expect(refusal { try given.job(environment: [:]) }?.hasPrefix("--settle: invalid duration 'x'") == true)
    }

    @Test func theServeLoginComesFromTheEnvironmentGiven() throws {
        var given = arguments()
        given.serve = ServeRequest(serve: "0.0.0.0:0")
        #expect(refusal { try given.job(environment: [:]) }?.contains("would let anyone who reaches 0.0.0.0 watch") == true)
        let job = try given.job(environment: [ServeRequest.authVariable: "viewer:secret"])
        #expect(job.settings.serve?.credentials?.user == "viewer" && job.warnings.isEmpty)
        given.serve = ServeRequest(serve: "0", auth: "viewer:secret")
        #expect(try given.job(environment: [:]).warnings.count == 1)
    }

    /// Refusals are found in the order the options are read: the encoding before the sound,
    /// OUTPUT before the clips, the layout before the controls, the keyframe interval last.
    @Test func refusalsComeInTheOrderTheOptionsAreRead() {
        var given = arguments(nil)
        given.keyframeInterval = "0"
        given.flash = "blink"
        given.layout = LayoutRequest(layout: "mosaic")
        given.clips = ClipRequest(maxClip: "0")
        given.audio = ""
        given.codec = "vp9"
        let expected = ["--codec:", "--audio:", "missing OUTPUT", "--max-clip:", "--layout:", "--flash:", "--keyframe-interval:"]
        for prefix in expected {
            let message = refusal { try given.job(environment: [:]) }
            #expect(message?.hasPrefix(prefix) == true, "\(prefix): \(message ?? "nil")")
            switch prefix {
            case "--codec:": given.codec = nil
            case "--audio:": given.audio = nil
            case "missing OUTPUT": given.output = "movie.mp4"
            case "--max-clip:": given.clips = ClipRequest()
            case "--layout:": given.layout = LayoutRequest()
            case "--flash:": given.flash = nil
            default: given.keyframeInterval = nil
            }
        }
        #expect(refusal { try given.job(environment: [:]) } == nil)
    }
}

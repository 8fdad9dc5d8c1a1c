import FoundationEssentials
import GStreamer

/// Fills the recording template for a configuration.
public struct RecordPipeline: Sendable {
    /// The configuration it is built for.
    public let config: RecordConfig
    /// The template it fills.
    public let template: PipelineTemplate

    public init(config: RecordConfig, template: PipelineTemplate = .record) {
        self.config = config
        self.template = template
    }

    /// The description camrec runs, writing to `location` (with segments: the first
    /// file; camrec names the others as they begin).
    public func description(location: String) throws(TemplateError) -> String {
        try template.render(values(location: "\"" + Pipeline.escapeForParser(location) + "\""))
    }

    /// A `gst-launch-1.0 -e …` command line that records the same kind of file to OUTPUT.
    /// With segments, splitmuxsink names its files with printf (`%d` is the file's number)
    /// and cuts them by time (camrec names them itself and cuts them exactly).
    public func commandLine() throws(TemplateError) -> String {
        var location = config.outputPath
        if config.segments != nil {
            let (stem, ext) = OutputFile.split(location.replacing("%", with: "%%"))
            location = stem + "-%04d" + ext
        }
        return "gst-launch-1.0 -e " + (try template.render(values(location: ShellQuoting.quote(location), printed: true)))
    }

    private func values(location: String, printed: Bool = false) -> [String: String] {
        // --layout: the cameras' branches and the canvas instead of one source.
        var values = config.composition?.values(rate: config.rate, quote: ShellQuoting.quote)
            ?? Self.sourceValues(source: config.source, size: config.size, rate: config.rate,
                                 picture: config.picture, passthrough: config.encoder.isPassthrough, printed: printed)
        if let segments = config.segments {
            var output = config.container.splitMuxer + " name=mux location=" + location
            if printed, let length = segments.length {
                output += " max-size-time=\(max(1, length.nanoseconds)) send-keyframe-requests=true"
            }
            values["output"] = output
        } else if config.standby && !printed {
            // No movie: the encoded frames go only to the clips.
            values["output"] = "fakesink name=sink sync=false async=false"
        } else {
            values["output"] = config.container.muxer + " name=mux ! filesink name=sink " + MediaContainer.fileSinkProperties + " location=" + location
        }
        // Decoders output full-range video; converting to limited range keeps the matrix
        // (JPEG's is BT.601), so it is cheap. Raw frames keep their colorimetry: forcing
        // another matrix would cost a full colour conversion per frame (~30% more CPU).
        var decodes = false
        if case .camera(_, let format) = config.source { decodes = format.decoding != .none }
        let colorimetry = decodes ? ",colorimetry=bt601" : ""
        // Event clips: the encoded stream also goes to the pre-roll (camrec's own code; a
        // printed gst-launch line leaves it out).
        // The RTSP server (--serve) takes the movie's own stream too (camrec's code; a printed
        // gst-launch line leaves it out).
        addEncode(colorimetry: colorimetry, clipFeed: config.clips != nil && !printed, serveFeed: config.serve != nil && !printed,
                  to: &values)
        // The picture is changed after the conversion to I420 (which then moves before the
        // tee, leaving the recording branch's videoconvert with nothing to do): turning
        // 4:2:0 moves a quarter fewer bytes than the camera's 4:2:2, and the conversion
        // was paid for anyway.
        // (A canvas is I420 already, and its picture only overlays: each camera is turned
        // in its own branch, `Composition`.)
        Self.addPicture(config.picture, size: config.size, printed: printed, to: &values, template: template,
                        convertFirst: config.composition == nil ? "videoconvert ! video/x-raw,format=I420" + colorimetry : nil,
                        tapsScene: motionTapsScene(printed: printed))
        addMotion(to: &values, printed: printed)
        addPreview(to: &values, printed: printed)
        // A template written before {audio} existed records silent movies.
        if config.audio != nil || template.placeholders.contains("audio") {
            // Event clips take the sound encoder's output too.
            let clipSound = config.clips != nil && !printed ? Self.clipSoundFeed + " " : ""
            // The RTSP server takes the sound encoder's output too (--serve).
            let serveSound = config.serve != nil && !printed ? Self.serveSoundFeed + " " : ""
            // Standby: the sound goes only to the clips (and the server).
            let muxerPad = serveSound + (config.standby && !printed ? Self.standbySoundFeed : clipSound + "mux.audio_0")
            values["audio"] = config.audio.map { audio in
                audio.branch(muxerPad: muxerPad, level: config.soundTrigger != nil) { value in
                    printed ? ShellQuoting.quote(value) : "\"" + Pipeline.escapeForParser(value) + "\""
                }
            } ?? ""
        }
        return values
    }

    /// Fills {encode}: what turns the recording branch's frames into the movie's stream.
    /// Encoding: the conversion to the encoder's raw format, the encoder (named "encoder")
    /// and the codec's parser. Passthrough: nothing (the camera's stream is parsed before
    /// the tee). A template written before {encode} existed has `{colorimetry}` and
    /// `{encoder}` followed by h264parse: it is filled that way, and records H.264 only.
    /// With `clipFeed`, the encoder's output also goes to event clips (`clipFeed`), and with
    /// `serveFeed` to the RTSP server (`serveFeed`), before the parser (a tee's caps are
    /// anything; the parser's are the muxer's).
    private func addEncode(colorimetry: String, clipFeed: Bool = false, serveFeed: Bool = false,
                           to values: inout [String: String]) {
        let encoder = config.encoder
        let taps = (clipFeed ? Self.clipFeed : "") + (serveFeed ? Self.serveFeed : "")
        guard let profile = encoder.profile(size: config.size, rate: config.rate) else {
            // Passthrough: the camera's own (parsed) stream feeds the clips and the server,
            // parsed again after the tee so that it links to the muxer.
            values["encode"] = taps.isEmpty ? "" : taps + " " + encoder.clipParser
            return
        }
        let used = template.placeholders
        if !used.contains("encode"), used.contains("encoder"), encoder.codec == .h264 {
            values["colorimetry"] = colorimetry
            values["encoder"] = profile.element
            return
        }
        let raw = "video/x-raw" + (profile.inputFormat.map { ",format=" + $0 } ?? "") + colorimetry
        let feed = taps.isEmpty ? encoder.parser : taps + " " + encoder.clipParser
        // Frames kept from a faster camera (`RateDecimator`, at the gate) come at the movie's
        // rate: the caps say so, so that the encoder's rate control and the muxer (the last
        // frame's duration, Matroska's default duration) count the movie's frames, not the
        // camera's.
        let rate = keptRate.map { "! capssetter caps=video/x-raw,framerate=\($0.numerator)/\($0.denominator) " } ?? ""
        values["encode"] = "\(rate)! videoconvert ! \(raw) ! \(profile.element) name=encoder \(feed)"
    }

    /// The movie's rate when the gate keeps only some of a faster camera's frames (the same
    /// condition as `GateProbe`'s decimator, or a time-lapse); nil when every frame is kept.
    private var keptRate: FrameRateValue? {
        if config.timelapse != nil { return config.rate }
        guard config.composition == nil, case .camera(_, let format) = config.source, format.rate != config.rate else { return nil }
        return config.rate
    }

    /// The branch after the encoder that feeds event clips (`ClipRecorder`): a tee, and an
    /// appsink on its own queue's thread (the clip writer parses what it gets). The queue never blocks the movie: when the
    /// clips' thread falls 5 s behind, it drops (counted as lost clip packets).
    static let clipFeed = " ! tee name=encoded encoded. ! queue name=clipqueue leaky=downstream max-size-buffers=0"
        + " max-size-bytes=0 max-size-time=5000000000 ! appsink name=clipfeed sync=false async=false"
        + " wait-on-eos=false encoded."

    /// The branch after the encoder (or, with --codec copy, at the recording branch's start)
    /// that feeds the RTSP server (`LiveStreamServer`): a tee, a leaky queue and an
    /// appsink that drops, so a server that falls behind costs the movie nothing.
    static let serveFeed = " ! tee name=served served. ! queue name=servequeue leaky=downstream max-size-buffers=0"
        + " max-size-bytes=0 max-size-time=2000000000 ! appsink name=serve sync=false async=false wait-on-eos=false"
        + " enable-last-sample=false served."

    /// The same for the sound: the sound encoder's output to the RTSP server, and on.
    static let serveSoundFeed = "tee name=servedaudio ! queue name=servesoundqueue leaky=downstream max-size-buffers=0"
        + " max-size-bytes=0 max-size-time=2000000000 ! appsink name=servesound sync=false async=false wait-on-eos=false"
        + " enable-last-sample=false servedaudio. !"

    /// The same for the sound: the sound encoder's output to event clips, and on to the
    /// muxer's sound pad (named, so the tee's caps do not matter there).
    static let clipSoundFeed = "tee name=encodedaudio ! queue name=clipaudioqueue leaky=downstream max-size-buffers=0"
        + " max-size-bytes=0 max-size-time=5000000000 ! appsink name=clipsound sync=false async=false"
        + " wait-on-eos=false encodedaudio. !"

    /// Whether the motion branch takes the picture before the privacy masks (from the tee
    /// "scene" that {picture} then holds): motion detection sees what the masks hide.
    private func motionTapsScene(printed: Bool) -> Bool {
        config.motion != nil && !printed && !config.picture.mask.isEmpty
    }

    /// Fills {motion}: the motion trigger's branch off the camera's tee (`--on-motion`; with
    /// privacy masks, off the tee before them), or nothing. A template written before
    /// {motion} existed works while it is not asked for.
    private func addMotion(to values: inout [String: String], printed: Bool) {
        guard config.motion != nil || template.placeholders.contains("motion") else { return }
        guard config.motion != nil, !printed else {
            values["motion"] = ""
            return
        }
        // The tee carries the camera's JPEG frames when only the movie decodes them.
        var decode = ""
        // (A canvas, --layout, carries decoded frames.)
        if config.composition == nil, case .camera(_, let format) = config.source, format.decoding == .jpeg,
           !config.picture.isActive { decode = "! jpegdec " }
        let size = config.picture.orientation.outputSize(config.size)
        let height = MotionSettings.height(for: size)
        let tee = motionTapsScene(printed: printed) ? PictureSettings.sceneTee : "t"
        values["motion"] = "\(tee). ! queue name=motionqueue leaky=downstream max-size-buffers=1 max-size-bytes=0 max-size-time=0 "
            + decode + "! videoscale ! videoconvert ! video/x-raw,format=GRAY8,width=\(MotionSettings.width),height=\(height)"
            + " ! appsink name=motion drop=true max-buffers=1 sync=false async=false wait-on-eos=false"
    }

    /// Fills {preview}: the preview window's branch off the camera's tee (`--preview`), or
    /// nothing. A leaky queue of one frame (its own thread: decoding for the window never
    /// runs on the camera's), the decoder when the tee carries the camera's encoded frames,
    /// and the appsink "preview" (one frame, dropping) that `PreviewWindow` takes frames from:
    /// the movie never waits for the window. The printed gst-launch line draws the window in
    /// the same pipeline instead (autovideosink), as gst-launch has no second pipeline.
    /// A template written before {preview} existed works while it is not asked for.
    private func addPreview(to values: inout [String: String], printed: Bool) {
        guard config.preview != nil || template.placeholders.contains("preview") else { return }
        guard config.preview != nil else {
            values["preview"] = ""
            return
        }
        let oneFrame = "leaky=downstream max-size-buffers=1 max-size-bytes=0 max-size-time=0"
        var decode = ""
        // A canvas (--layout) carries decoded frames.
        if config.composition == nil, case .camera(_, let format) = config.source {
            switch format.decoding {
            case .jpeg where !config.picture.isActive || config.encoder.isPassthrough:
                decode = " ! jpegdec"
            case .h264 where config.encoder.isPassthrough:
                // H.264 frames depend on the ones before: they are decoded before any is
                // dropped (a queue of 2 s, leaky too, so a stuck decoder still costs the movie nothing).
                decode = " ! avdec_h264 ! queue " + oneFrame
            default:
                break
            }
        }
        let queue = decode.contains("avdec_h264")
            ? "leaky=downstream max-size-buffers=0 max-size-bytes=0 max-size-time=2000000000" : oneFrame
        let branch = "t. ! queue name=\(PreviewSettings.queueName) \(queue)" + decode
        if printed {
            values["preview"] = branch + " ! videoconvert ! textoverlay text=REC valignment=top halignment=left"
                + " shaded-background=true ! videoconvert ! autovideosink sync=false"
        } else {
            values["preview"] = branch + " ! appsink name=\(PreviewSettings.sinkName) drop=true max-buffers=1"
                + " sync=false async=false wait-on-eos=false enable-last-sample=false"
        }
    }

    /// `--standby`: the sound encoder's output to event clips only.
    static let standbySoundFeed = "queue name=clipaudioqueue leaky=downstream max-size-buffers=0 max-size-bytes=0"
        + " max-size-time=5000000000 ! appsink name=clipsound sync=false async=false wait-on-eos=false"

    /// Fills {picture} (`PictureSettings.fragment`). A template without {picture} (a
    /// `--pipeline` written before it existed) still works while nothing is done to the
    /// picture; when something is, rendering says the placeholder is missing.
    /// `convertFirst` (gst-launch syntax, without "! ") comes before the picture's elements
    /// when there are any. `tapsScene`: a tee named "scene" before the masks (for motion).
    static func addPicture(_ picture: PictureSettings, size: FrameSize, printed: Bool,
                           to values: inout [String: String], template: PipelineTemplate, convertFirst: String? = nil,
                           tapsScene: Bool = false) {
        guard picture.isActive || template.placeholders.contains("picture") else { return }
        let fragment = picture.fragment(cameraSize: size, printed: printed, tapsScene: tapsScene) { value in
            printed ? ShellQuoting.quote(value) : "\"" + Pipeline.escapeForParser(value) + "\""
        }
        values["picture"] = fragment.isEmpty ? "" : (convertFirst.map { "! " + $0 + " " } ?? "") + fragment
    }

    /// The placeholders that describe the source: {source}, {caps}, {decode_shared} and
    /// {decode_record} (what only the movie, not the stills, needs decoded; with
    /// `passthrough`, nothing is decoded). When the
    /// picture is changed (`picture.isActive`), an MJPEG camera's frames are decoded for
    /// both branches: the stills must show the change, so they cannot be the camera's JPEGs.
    static func sourceValues(source videoSource: VideoSource, size: FrameSize, rate frameRate: FrameRateValue,
                             picture: PictureSettings = .unchanged, passthrough: Bool = false,
                             printed: Bool = false) -> [String: String] {
        let rate = "\(frameRate.numerator)/\(frameRate.denominator)"
        let source: String
        let caps: String
        var decodeShared = ""
        var decodeRecord = ""
        switch videoSource {
        case .testPattern:
            source = "videotestsrc is-live=true pattern=smpte horizontal-speed=4"
            caps = "video/x-raw,width=\(size.width),height=\(size.height),framerate=\(rate)"
        case .movie(let movie):
            // Decoded by camrec's own pipeline (MovieFeeder); a printed line decodes it itself.
            source = printed ? movie.printedElement(quote: ShellQuoting.quote) : movie.element
            caps = movie.format.caps
        case .camera(let path, let format):
            source = "v4l2src device=" + ShellQuoting.quote(path)
            caps = format.caps
            switch format.decoding {
            case _ where passthrough:
                // The camera's own stream goes to the movie as it comes: H.264 parsed, its
                // parameter sets repeated before every keyframe (each fragment and segment
                // then plays on its own); JPEG frames as they are.
                if format.decoding == .h264 { decodeShared = "! h264parse config-interval=-1" }
            case .none: break
            case .jpeg:
                if picture.isActive { decodeShared = "! jpegdec" } else { decodeRecord = "! jpegdec" }
            case .h264: decodeShared = "! h264parse ! avdec_h264"
            }
        }
        return [
            "source": source,
            "caps": caps,
            "decode_shared": decodeShared,
            "decode_record": decodeRecord,
        ]
    }
}

/// POSIX shell quoting for printed command lines.
enum ShellQuoting {
    /// `text` unchanged when it is safe as one shell word, else in single quotes.
    static func quote(_ text: String) -> String {
        let safe = !text.isEmpty && text.unicodeScalars.allSatisfy { scalar in
            (scalar.value < 128) && (safeCharacters.contains(Character(scalar)))
        }
        if safe { return text }
        return "'" + text.replacing("'", with: "'\\''") + "'"
    }

    private static let safeCharacters: Set<Character> = Set(
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./-+:,=@%")
}

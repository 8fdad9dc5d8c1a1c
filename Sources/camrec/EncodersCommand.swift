import ArgumentParsing
import CamrecKit

/// `camrec encoders [--json] [--no-trial]`: the video encoders GStreamer has here for H.264,
/// H.265 and Motion JPEG, hardware or software, and whether each works.
enum EncodersCommand: Subcommand {
    static let spec = CommandSpec(
        name: "camrec encoders",
        abstract: "List the video encoders here, hardware and software, and whether each works.",
        usage: "camrec encoders [--json] [--no-trial]",
        options: [
            OptionSpec(["--json"], help: "print one JSON object per encoder on stdout"),
            OptionSpec(["--no-trial"], help: "only list them: do not encode test frames to see which work"),
        ],
        positionals: [],
        discussion: """
            Lists every installed element whose klass says video encoder and whose output is
            H.264, H.265 or Motion JPEG, in the order --encoder auto tries them: hardware
            first (klass Codec/Encoder/Video/Hardware), then camrec's software choice
            (x264enc, openh264enc; x265enc; jpegenc), then the rest. Each is tried by
            encoding \(EncoderSelection.trialFrames) test frames at \(EncoderTrial.listingSize)@\(EncoderTrial.listingRate.fraction): an
            installed hardware encoder often cannot open a device (vaapih264enc without a
            GPU, v4l2h264enc without its /dev/video node). The encoder a recording with
            --encoder auto would take is marked. Exit status 0.
            """
    )

    /// What to do.
    struct Options {
        var json: Bool
        var trial: Bool
    }

    static func validate(_ parsed: ParsedArguments) throws(UsageError) -> Options {
        Options(json: parsed.flag("--json"), trial: !parsed.flag("--no-trial"))
    }

    static func console(for parsed: ParsedArguments) -> Console { Console(json: parsed.flag("--json"), quiet: false) }

    static func run(_ options: Options, console: Console) throws(CamrecError) -> ExitStatus {
        let lines = listing(trial: options.trial)
        if options.json {
            for line in lines { console.emit(line, type: "encoder") }
        } else if lines.isEmpty {
            console.say("camrec: no video encoder is installed: sudo apt-get install gstreamer1.0-plugins-ugly (x264enc)")
        } else {
            print(humanText(lines), terminator: "")
        }
        return .success
    }

    /// The JSON `encoder` line (and the human line's facts).
    struct EncoderLine: Encodable {
        let factory: String
        let longName: String
        let codec: String
        let hardware: Bool
        let rank: Int
        let plugin: String
        /// Whether it encoded the test frames (absent with --no-trial).
        let works: Bool?
        /// Why it does not work.
        let reason: String?
        /// Whether `--encoder auto` takes it for its codec (absent with --no-trial).
        let auto: Bool?
    }

    /// Every encoder, each codec's in the order auto tries them, with its trial's outcome.
    static func listing(trial: Bool) -> [EncoderLine] {
        VideoCodec.allCases.flatMap { codec -> [EncoderLine] in
            let candidates = EncoderCatalog.candidates(for: codec)
            guard trial else {
                return candidates.map { line($0, outcome: nil, auto: nil) }
            }
            var outcomes: [String: TrialOutcome] = [:]
            for candidate in candidates {
                outcomes[candidate.factory] = EncoderTrial.run(
                    element: candidate.factory, codec: codec, size: EncoderTrial.listingSize, rate: EncoderTrial.listingRate,
                    frames: EncoderSelection.trialFrames)
            }
            // auto's choice from the same outcomes, as a recording would make it.
            let chosen = try? EncoderSelection.select(
                request: .auto, codec: codec, candidates: candidates, describe: { $0.factory },
                trial: { outcomes[$0] ?? .fails(reason: "not tried") })
            return candidates.map { candidate in
                line(candidate, outcome: outcomes[candidate.factory], auto: chosen?.candidate.factory == candidate.factory)
            }
        }
    }

    private static func line(_ candidate: EncoderCandidate, outcome: TrialOutcome?, auto: Bool?) -> EncoderLine {
        EncoderLine(factory: candidate.factory, longName: candidate.longName, codec: candidate.codec.rawValue,
                    hardware: candidate.isHardware, rank: candidate.rank, plugin: candidate.plugin,
                    works: outcome?.works, reason: outcome?.reason, auto: auto)
    }

    /// One line per encoder: codec, factory, hardware/software, works or why not.
    static func humanText(_ lines: [EncoderLine]) -> String {
        let width = (lines.map(\.factory.count).max() ?? 0) + 2
        return lines.map { line in
            var text = line.codec.padding(7) + line.factory.padding(width) + (line.hardware ? "hardware" : "software").padding(10)
            switch (line.works, line.reason) {
            case (true?, _): text += "works"
            case (false?, let reason): text += "does not work: " + (reason ?? "unknown reason")
            case (nil, _): text += "not tried"
            }
            if line.auto == true { text += "  (auto's choice)" }
            return text + "\n"
        }.joined()
    }
}

extension String {
    /// Left-aligned in `width` columns (at least one space after).
    fileprivate func padding(_ width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}

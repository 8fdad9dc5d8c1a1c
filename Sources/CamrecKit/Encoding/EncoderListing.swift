/// The video encoders installed here for H.264, H.265 and Motion JPEG (`camrec encoders`),
/// each codec's in the order `--encoder auto` tries them, each tried on a few test frames.
public enum EncoderListing {
    /// The JSON `encoder` line (and the human line's facts).
    public struct Line: Encodable, Sendable, Equatable {
        /// The element's factory name (x264enc).
        public let factory: String
        /// Its long name, as gst-inspect-1.0 shows it.
        public let longName: String
        /// h264, h265 or mjpeg.
        public let codec: String
        /// Whether its klass says Hardware.
        public let hardware: Bool
        /// Its rank.
        public let rank: Int
        /// The plugin it comes from.
        public let plugin: String
        /// Whether it encoded the test frames (absent with --no-trial).
        public let works: Bool?
        /// Why it does not work.
        public let reason: String?
        /// Whether `--encoder auto` takes it for its codec (absent with --no-trial).
        public let auto: Bool?
    }

    /// Every encoder, each codec's in the order auto tries them, with its trial's outcome.
    public static func scan(trial: Bool) -> [Line] {
        VideoCodec.allCases.flatMap { codec -> [Line] in
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

    private static func line(_ candidate: EncoderCandidate, outcome: TrialOutcome?, auto: Bool?) -> Line {
        Line(factory: candidate.factory, longName: candidate.longName, codec: candidate.codec.rawValue,
                    hardware: candidate.isHardware, rank: candidate.rank, plugin: candidate.plugin,
                    works: outcome?.works, reason: outcome?.reason, auto: auto)
    }

    /// One line per encoder: codec, factory, hardware/software, works or why not.
    public static func humanText(_ lines: [Line]) -> String {
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

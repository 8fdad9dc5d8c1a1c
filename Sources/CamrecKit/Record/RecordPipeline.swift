import Foundation

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

    /// The description camrec runs, writing to `location`.
    public func description(location: String) throws(TemplateError) -> String {
        try template.render(values(location: "\"" + Self.escapeForParser(location) + "\""))
    }

    /// A `gst-launch-1.0 -e …` command line that records the same kind of file to OUTPUT.
    public func commandLine() throws(TemplateError) -> String {
        "gst-launch-1.0 -e " + (try template.render(values(location: ShellQuoting.quote(config.outputPath))))
    }

    private func values(location: String) -> [String: String] {
        var values = Self.sourceValues(source: config.source, size: config.size, rate: config.rate)
        values["encoder"] = config.encoder.element(size: config.size, rate: config.rate)
        values["muxer"] = config.container.muxer
        // Decoders output full-range video; converting to limited range keeps the matrix
        // (JPEG's is BT.601), so it is cheap. Raw frames keep their colorimetry: forcing
        // another matrix would cost a full colour conversion per frame (~30% more CPU).
        var decodes = false
        if case .camera(_, let format) = config.source { decodes = format.decoding != .none }
        values["colorimetry"] = decodes ? ",colorimetry=bt601" : ""
        values["location"] = location
        return values
    }

    /// The placeholders that describe the source: {source}, {caps}, {decode_shared} and
    /// {decode_record} (what only the movie, not the stills, needs decoded).
    static func sourceValues(source videoSource: VideoSource, size: FrameSize, rate frameRate: FrameRateValue) -> [String: String] {
        let rate = "\(frameRate.numerator)/\(frameRate.denominator)"
        let source: String
        let caps: String
        var decodeShared = ""
        var decodeRecord = ""
        switch videoSource {
        case .testPattern:
            source = "videotestsrc is-live=true pattern=smpte horizontal-speed=4"
            caps = "video/x-raw,width=\(size.width),height=\(size.height),framerate=\(rate)"
        case .camera(let path, let format):
            source = "v4l2src device=" + ShellQuoting.quote(path)
            caps = format.caps
            switch format.decoding {
            case .none: break
            case .jpeg: decodeRecord = "! jpegdec"
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

    /// Escapes `"` and `\` for a double-quoted gst_parse_launch value.
    static func escapeForParser(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
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
        return "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    private static let safeCharacters: Set<Character> = Set(
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./-+:,=@%")
}

extension EncodingRequest {
    /// `--codec`, `--encoder`, `--quality` and `--bitrate` as given (nil: not given), with
    /// their rules: known names, an encoder named, and no encoder with `--codec copy`. The
    /// keyframe interval is left at its default (see ``keyframeInterval(_:segmented:)``).
    /// Every refusal is a usage error.
    public static func parse(codec: String?, encoder: String?, quality: String?, bitrate: String?) throws(CamrecError) -> EncodingRequest {
        let codecRequest = try OptionValue.parse("--codec", codec) { (text: String) throws(ValueError) -> CodecRequest in
            guard let codec = CodecRequest(text) else {
                throw ValueError("unknown codec '\(text)': use auto, h264, h265, mjpeg or copy")
            }
            return codec
        } ?? .auto
        let encoderRequest = encoder.map(EncoderRequest.init) ?? .auto
        if case .named(let name) = encoderRequest, name.isEmpty {
            throw OptionValue.refusal("--encoder: give auto, software or an element name (camrec encoders lists them)")
        }
        // auto: medium's bits, the effort chosen by timing the encoder (nil here).
        let chosenQuality = try OptionValue.parse("--quality", quality) { (text: String) throws(ValueError) -> Quality? in
            if text.lowercased() == "auto" { return nil }
            guard let quality = Quality(rawValue: text.lowercased()) else {
                throw ValueError("unknown quality '\(text)': use auto, low, medium, high or max")
            }
            return quality
        }
        let kilobits = try OptionValue.parse("--bitrate", bitrate, BitRate.parseKilobits)
        if case .copy = codecRequest, case .named = encoderRequest {
            throw OptionValue.refusal("--encoder with --codec copy: copy stores the camera's stream without an encoder; give one of them")
        }
        var request = EncodingRequest(codec: codecRequest, encoder: encoderRequest, quality: (chosenQuality ?? nil) ?? .medium,
                                      bitrate: kilobits, qualityGiven: quality != nil)
        request.autoQuality = quality != nil && chosenQuality == .some(nil)
        return request
    }

    /// `--keyframe-interval` as given, in seconds: above 0 and at most 10 s; not given, the
    /// default for a run that is `segmented` or not.
    public static func keyframeInterval(_ text: String?, segmented: Bool) throws(CamrecError) -> Double {
        let interval = try OptionValue.parse("--keyframe-interval", text) { (text: String) throws(ValueError) -> TimeSpec in
            let interval = try TimeSpec.parse(text)
            guard interval.nanoseconds > 0, interval <= .seconds(10) else {
                throw ValueError("invalid keyframe interval '\(text)': use a time above 0 and at most 10s, e.g. 1s or 0.5")
            }
            return interval
        }
        return interval?.seconds ?? EncoderSettings.defaultKeyframeInterval(segmented: segmented)
    }
}

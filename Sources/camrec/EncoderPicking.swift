import CamrecKit

/// Picks the encoder element for a codec from `--encoder`: `EncoderSelection` lists the
/// encoders here, tries hardware ones on a few frames at the recording's size and rate with
/// the very element the recording will run (its `EncoderProfile`), and says why.
enum EncoderPicking {
    static func pick(_ request: EncodingRequest, codec: VideoCodec, size: FrameSize, rate: FrameRateValue) throws(CamrecError) -> EncoderPick {
        let describe: (EncoderCandidate) -> String = { candidate in
            profile(candidate.factory, request: request, codec: codec, size: size, rate: rate)
        }
        let selection = try EncoderSelection.select(request: request.encoder, codec: codec, size: size, rate: rate,
                                                    describe: describe)
        let factory = selection.candidate.factory
        return EncoderPick(factory: factory, hardware: selection.candidate.isHardware, reason: selection.reason,
                           warnings: selection.warnings, hasProperty: ElementCheck.propertyCheck(factory))
    }

    /// The element a recording runs for `factory` with the request's settings.
    static func profile(_ factory: String, request: EncodingRequest, codec: VideoCodec, size: FrameSize,
                        rate: FrameRateValue) -> String {
        var settings = EncoderSettings(keyframeInterval: request.keyframeInterval, bitrate: request.bitrate,
                                       quality: request.quality, codec: codec, factory: factory)
        settings.hasProperty = ElementCheck.propertyCheck(factory)
        return settings.profile(size: size, rate: rate)?.element ?? factory
    }
}

/// Picks the encoder element for a codec from `--encoder`: `EncoderSelection` lists the
/// encoders here, tries hardware ones on a few frames at the recording's size and rate with
/// the very element the recording will run (its `EncoderProfile`), and says why.
public enum EncoderPicking {
    /// A camera's recording encoding: `--max-duration` checked at the camera's rate (a
    /// usage error otherwise), then the encoding planned for its source, size and rate.
    public static func plan(_ request: EncodingRequest, for resolution: CameraResolver.Resolution, maxDuration: TimeSpec?,
                            container: MediaContainer, needsDecoding: [String]) throws(CamrecError) -> (settings: EncoderSettings, warnings: [String]) {
        do {
            try MaxDuration.check(maxDuration, at: resolution.rate)
        } catch {
            throw CamrecError(.usage, error.message)
        }
        return try EncodingPlanner.plan(
            request,
            context: .init(source: resolution.source, rate: resolution.rate, container: container, needsDecoding: needsDecoding)
        ) { codec throws(CamrecError) in
            try pick(request, codec: codec, size: resolution.size, rate: resolution.rate)
        }
    }

    /// The encoder for `codec` at `size` and `rate`, as `--encoder` asks (see ``EncoderSelection``).
    public static func pick(_ request: EncodingRequest, codec: VideoCodec, size: FrameSize, rate: FrameRateValue) throws(CamrecError) -> EncoderPick {
        let describe: (EncoderCandidate) -> String = { candidate in
            profile(candidate.factory, request: request, codec: codec, size: size, rate: rate)
        }
        let selection = try EncoderSelection.select(request: request.encoder, codec: codec, size: size, rate: rate,
                                                    describe: describe)
        let factory = selection.candidate.factory
        var pick = EncoderPick(factory: factory, hardware: selection.candidate.isHardware, reason: selection.reason,
                               warnings: selection.warnings, hasProperty: ElementCheck.propertyCheck(factory))
        let ladder = EncoderEffort.ladder(for: factory)
        if request.timesEffort(for: codec), !selection.candidate.isHardware, !ladder.isEmpty {
            let choice = EffortChoice.choose(ladder, rate: rate) { effort in
                EncoderPaceTrial.run(element: profile(factory, request: request, codec: codec, size: size, rate: rate, effort: effort),
                                     size: size, rate: rate, needed: rate.framesPerSecond * EffortChoice.margin)
            }
            if let choice {
                pick.effort = choice.effort
                pick.reason += "; " + choice.reason
                if let warning = choice.warning(factory: factory, codec: codec, size: size, rate: rate) {
                    pick.warnings.append(warning)
                }
            }
        }
        return pick
    }

    /// The element a recording runs for `factory` with the request's settings (and an
    /// effort `--quality auto` tries).
    public static func profile(_ factory: String, request: EncodingRequest, codec: VideoCodec, size: FrameSize,
                               rate: FrameRateValue, effort: EncoderEffort? = nil) -> String {
        var settings = EncoderSettings(keyframeInterval: request.keyframeInterval, bitrate: request.bitrate,
                                       quality: request.quality, codec: codec, factory: factory)
        settings.hasProperty = ElementCheck.propertyCheck(factory)
        settings.effort = effort
        return settings.profile(size: size, rate: rate)?.element ?? factory
    }
}

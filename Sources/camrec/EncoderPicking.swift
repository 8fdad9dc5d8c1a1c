import CamrecKit

/// Picks the encoder element for a codec from `--encoder`.
enum EncoderPicking {
    static func pick(_ request: EncoderRequest, codec: VideoCodec, size: FrameSize, rate: FrameRateValue) throws(CamrecError) -> EncoderPick {
        let software = EncoderPick.software(codec)
        switch request {
        case .auto, .software:
            guard ElementCheck.exists(software) else {
                throw CamrecError(.unavailable, ElementCheck.missingMessage(software, use: "\(codec.displayName) encoding"))
            }
            return EncoderPick(factory: software, hardware: false, reason: "\(software) (software)")
        case .named(let name):
            guard ElementCheck.exists(name) else {
                throw CamrecError(.unavailable, ElementCheck.missingMessage(name, use: "--encoder \(name)"))
            }
            return EncoderPick(factory: name, hardware: false, reason: "\(name) (--encoder)",
                               hasProperty: ElementCheck.propertyCheck(name))
        }
    }
}

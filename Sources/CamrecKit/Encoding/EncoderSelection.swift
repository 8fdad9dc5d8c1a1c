import GStreamer

/// Chooses the encoder a recording uses, from what `--encoder` asks (auto, software, a name),
/// the encoders installed (`EncoderCatalog`) and trials of them (`EncoderTrial`).
///
/// `auto` tries each hardware encoder in the catalog's order by encoding a few test frames,
/// and takes the first that works; when none does (or none is installed), the first
/// software encoder. Software encoders are not tried: x264enc, x265enc and jpegenc need no
/// device. A hardware encoder that failed its trial gives a warning saying why. A named
/// encoder is tried too, and one that fails is an error: the user asked for it, so there is
/// no silent fallback.
public enum EncoderSelection {
    /// The encoder chosen, and why.
    public struct Selection: Sendable, Equatable {
        /// The encoder.
        public var candidate: EncoderCandidate
        /// Its element in pipeline syntax with its properties (what `describe` made of it).
        public var element: String
        /// Why it was chosen, for people: "vah264enc: hardware, works (encoded 5 test frames)".
        public var reason: String
        /// One per hardware encoder that was tried and failed: "skipped hardware encoder
        /// vaapih264enc: it failed to start (…); using x264enc".
        public var warnings: [String]

        public init(candidate: EncoderCandidate, element: String, reason: String, warnings: [String]) {
            self.candidate = candidate
            self.element = element
            self.reason = reason
            self.warnings = warnings
        }
    }

    /// The Debian package of each software encoder camrec prefers, for "install …" errors.
    public static func softwarePackage(for codec: VideoCodec) -> (factory: String, package: String) {
        switch codec {
        case .h264: ("x264enc", "gstreamer1.0-plugins-ugly")
        case .h265: ("x265enc", "gstreamer1.0-plugins-bad")
        case .mjpeg: ("jpegenc", "gstreamer1.0-plugins-good")
        }
    }

    /// Chooses an encoder for `codec` as `request` asks, from the installed encoders here,
    /// trying them at the recording's `size` and `rate`. `describe` makes an encoder's
    /// element with its properties (bitrate, GOP) from the candidate; the trial runs that
    /// same element.
    public static func select(
        request: EncoderRequest, codec: VideoCodec, size: FrameSize, rate: FrameRateValue,
        describe: (EncoderCandidate) -> String = { $0.factory }
    ) throws(CamrecError) -> Selection {
        try select(
            request: request, codec: codec, candidates: EncoderCatalog.allCandidates(), describe: describe,
            trial: { EncoderTrial.run(element: $0, codec: codec, size: size, rate: rate, frames: trialFrames) },
            isInstalled: { name in (try? ElementFactory.find(name)) != nil }
        )
    }

    /// How many frames a trial encodes.
    public static let trialFrames = 5

    /// The choice itself, on plain values. `candidates` are the installed encoders (of any
    /// codec: a named encoder of another codec is a usage error, not a missing one), in the
    /// catalog's order; `trial` runs an element description and says whether it worked;
    /// `isInstalled` tells whether an element that is no video encoder exists at all.
    public static func select(
        request: EncoderRequest, codec: VideoCodec, candidates: [EncoderCandidate],
        describe: (EncoderCandidate) -> String, trial: (String) -> TrialOutcome,
        isInstalled: (String) -> Bool = { _ in false }
    ) throws(CamrecError) -> Selection {
        let usable = candidates.filter { $0.codec == codec }
        let hardware = usable.filter(\.isHardware)
        let software = usable.filter { !$0.isHardware }
        switch request {
        case .auto:
            var failures: [(factory: String, reason: String)] = []
            for candidate in hardware {
                let element = describe(candidate)
                switch trial(element) {
                case .works:
                    return Selection(candidate: candidate, element: element,
                                     reason: "\(candidate.factory): hardware, works (encoded \(trialFrames) test frames)",
                                     warnings: warnings(failures, using: candidate.factory))
                case .fails(let reason):
                    failures.append((candidate.factory, reason))
                }
            }
            let candidate = try firstSoftware(software, codec: codec)
            let why = failures.isEmpty
                ? "no hardware \(codec.displayName) encoder found"
                : "no hardware \(codec.displayName) encoder works here (" + failures.map(\.factory).joined(separator: ", ") + " failed)"
            return Selection(candidate: candidate, element: describe(candidate), reason: "\(candidate.factory): software; \(why)",
                             warnings: warnings(failures, using: candidate.factory))
        case .software:
            let candidate = try firstSoftware(software, codec: codec)
            return Selection(candidate: candidate, element: describe(candidate),
                             reason: "\(candidate.factory): software, as asked (--encoder software)", warnings: [])
        case .named(let name):
            guard let candidate = usable.first(where: { $0.factory == name }) else {
                throw missingNamed(name, codec: codec, candidates: candidates, isInstalled: isInstalled)
            }
            let element = describe(candidate)
            switch trial(element) {
            case .works:
                return Selection(candidate: candidate, element: element,
                                 reason: "\(name): \(candidate.kind), as asked (--encoder \(name)), works (encoded \(trialFrames) test frames)",
                                 warnings: [])
            case .fails(let reason):
                throw CamrecError(.unavailable, "encoder \(name) does not work here: \(reason) (camrec encoders lists what works; --encoder auto falls back to software)")
            }
        }
    }

    /// The first software encoder, or exit 69 naming the package of camrec's preferred one.
    private static func firstSoftware(_ software: [EncoderCandidate], codec: VideoCodec) throws(CamrecError) -> EncoderCandidate {
        guard let first = software.first else {
            let (factory, package) = softwarePackage(for: codec)
            throw CamrecError(.unavailable, "no \(codec.displayName) encoder is installed: camrec uses \(factory); install it with: sudo apt-get install \(package)")
        }
        return first
    }

    private static func warnings(_ failures: [(factory: String, reason: String)], using chosen: String) -> [String] {
        failures.map { "skipped hardware encoder \($0.factory): it failed to start (\($0.reason)); using \(chosen)" }
    }

    /// The error for a named encoder that is not among the codec's encoders: another codec's
    /// (usage, 64), an element that encodes no video (usage, 64), or not installed (69).
    private static func missingNamed(
        _ name: String, codec: VideoCodec, candidates: [EncoderCandidate], isInstalled: (String) -> Bool
    ) -> CamrecError {
        let list = "camrec encoders lists the encoders here"
        if let other = candidates.first(where: { $0.factory == name }) {
            return CamrecError(.usage, "\(name) encodes \(other.codec.displayName), not \(codec.displayName): choose an encoder of \(codec.displayName) (\(list))")
        }
        if isInstalled(name) {
            return CamrecError(.usage, "\(name) is not a video encoder (\(list))")
        }
        // A hardware encoder's plugin registers it only where its device and driver are.
        if let hardware = PluginChecks.hardwareEncoders.first(where: { $0.factory == name }) {
            return CamrecError(.unavailable, "encoder \(name) is not available here: it needs \(hardware.needs) (\(list))")
        }
        if let package = PluginPackages.package(for: name) {
            return CamrecError(.unavailable, "encoder \(name) is not installed: install it with: sudo apt-get install \(package)")
        }
        return CamrecError(.unavailable, "encoder \(name) is not installed (gst-inspect-1.0 \(name) tells whether GStreamer has it; \(list))")
    }
}

import MediaValues

/// Chooses the camera format, size and rate to record, from what the camera reports.
///
/// A pure function of the formats: no device access, so every rule is testable.
///
/// Rules, in order:
/// 1. Only formats camrec can record are considered: `FormatFamily.raw`, `.mjpeg`, `.h264`,
///    and only sizes with enumerated frame rates.
/// 2. The wanted rate is the requested one, else 30 fps. A rate "reaches" the wanted rate when it
///    is at least 99% of it (`FrameRateValue.meets`), so 29.97 counts as 30.
/// 3. Size: the requested size, which some format must offer (else `.sizeUnsupported`). With no
///    request: 1280x720 if some format reaches the wanted rate there; else the largest size
///    (by area, then width) within 1920x1080 that reaches it; if the camera only offers larger
///    sizes, the smallest of those.
/// 4. Rate: with a requested rate, a size where nothing reaches it is an error
///    (`.rateUnreachable`). With no requested rate, when nothing reaches 30 fps the wanted rate
///    falls back to the best rate available (at the requested size, or at sizes within the cap).
/// 5. Format: among formats that reach the wanted rate at the chosen size, the best
///    `FormatFamily` (raw, then MJPEG, then H.264); within raw, `FormatFamily.rawPreference`
///    order; then the driver's enumeration order.
/// 6. The chosen rate is the slowest of the format's rates that reaches the wanted rate
///    (exactly 30 when 60 and 30 are offered; 60 when only 60 is).
public enum FormatChooser {
    /// The rate wanted when none is requested.
    public static let defaultRate = FrameRateValue(30)
    /// The size preferred when none is requested.
    public static let defaultSize = FrameSize(width: 1280, height: 720)
    /// With no size requested, larger sizes than this are chosen only if the camera has nothing smaller.
    public static let sizeCap = FrameSize(width: 1920, height: 1080)

    /// Chooses from `formats` for an optional requested `size` and `rate`.
    ///
    /// `prefer` overrides rule 5 where one of its families reaches the wanted rate at the
    /// chosen size (the first that does wins): `[.h264]` when the movie can store the
    /// camera's H.264 as it comes (`--codec auto`), so that nothing is decoded or encoded.
    public static func choose(from formats: [PixelFormat], size: FrameSize? = nil,
                              rate: FrameRateValue? = nil, prefer: [FormatFamily] = []) throws(FormatChoiceError) -> FormatChoice {
        let modes = usableModes(formats)
        guard !modes.isEmpty else {
            throw .noUsableFormats(offered: formats.map { $0.fourcc.trimmingSpaces })
        }
        if let size {
            return try choose(modes: modes, size: size, rate: rate, prefer: prefer)
        }
        return try chooseSize(modes: modes, rate: rate, prefer: prefer)
    }

    // MARK: Requested size

    private static func choose(modes: [Mode], size: FrameSize, rate: FrameRateValue?, prefer: [FormatFamily]) throws(FormatChoiceError) -> FormatChoice {
        let atSize = modes.filter { $0.size == size }
        guard !atSize.isEmpty else {
            throw .sizeUnsupported(requested: size, nearest: nearestSizes(to: size, in: modes))
        }
        let wanted = rate ?? defaultRate
        if atSize.contains(where: { $0.reaches(wanted) }) {
            return pick(at: size, wanted: wanted, modes: modes, prefer: prefer, sizeReason: "\(size) as requested",
                        rateReason: rateReason(requested: rate, fallback: false))
        }
        if let rate {
            throw .rateUnreachable(requested: rate, size: size,
                                   available: unreachableDetail(rate: rate, size: size, modes: modes))
        }
        // Nothing reaches 30 fps at this size: take the best rate it has.
        let best = atSize.map(\.fastest).max() ?? wanted
        return pick(at: size, wanted: best, modes: modes, prefer: prefer, sizeReason: "\(size) as requested",
                    rateReason: "\(best.roundedDescription) fps is the fastest at \(size) (below \(defaultRate.roundedDescription))")
    }

    // MARK: No requested size

    private static func chooseSize(modes: [Mode], rate: FrameRateValue?, prefer: [FormatFamily]) throws(FormatChoiceError) -> FormatChoice {
        let capped = modes.filter { $0.size.fits(in: sizeCap) }
        guard !capped.isEmpty else { return try chooseAboveCap(modes: modes, rate: rate, prefer: prefer) }

        var wanted = rate ?? defaultRate
        var fallback = false
        if !capped.contains(where: { $0.reaches(wanted) }) {
            if let rate {
                // Larger sizes cannot be faster in practice, but check rather than assume.
                if let above = modes.filter({ $0.reaches(rate) }).map(\.size).sorted(by: smallerFirst).first {
                    return pick(at: above, wanted: rate, modes: modes, prefer: prefer,
                                sizeReason: "\(above) is the smallest size that reaches \(rate.roundedDescription) fps",
                                rateReason: rateReason(requested: rate, fallback: false))
                }
                throw .rateUnreachable(requested: rate, size: nil, available: fastestDetail(modes))
            }
            wanted = capped.map(\.fastest).max() ?? wanted
            fallback = true
        }
        let reaching = capped.filter { $0.reaches(wanted) }
        if reaching.contains(where: { $0.size == defaultSize }) {
            return pick(at: defaultSize, wanted: wanted, modes: modes, prefer: prefer,
                        sizeReason: "\(defaultSize) is the default size",
                        rateReason: rateReason(requested: rate, fallback: fallback))
        }
        guard let largest = reaching.map(\.size).sorted(by: smallerFirst).last else {
            throw .noUsableFormats(offered: [])
        }
        return pick(at: largest, wanted: wanted, modes: modes, prefer: prefer,
                    sizeReason: "\(largest) is the largest size up to \(sizeCap) that reaches \(wanted.roundedDescription) fps",
                    rateReason: rateReason(requested: rate, fallback: fallback))
    }

    /// A camera whose sizes all exceed the cap: the smallest size that reaches the wanted rate,
    /// else (no rate requested) the smallest size at its fastest rate.
    private static func chooseAboveCap(modes: [Mode], rate: FrameRateValue?, prefer: [FormatFamily]) throws(FormatChoiceError) -> FormatChoice {
        let wanted = rate ?? defaultRate
        let sizes = Set(modes.map(\.size)).sorted(by: smallerFirst)
        if let size = sizes.first(where: { size in modes.contains { $0.size == size && $0.reaches(wanted) } }) {
            return pick(at: size, wanted: wanted, modes: modes, prefer: prefer,
                        sizeReason: "\(size) is the smallest size the camera offers at \(wanted.roundedDescription) fps",
                        rateReason: nil)
        }
        if let rate { throw .rateUnreachable(requested: rate, size: nil, available: fastestDetail(modes)) }
        guard let size = sizes.first else { throw .noUsableFormats(offered: []) }
        let best = modes.filter { $0.size == size }.map(\.fastest).max() ?? wanted
        return pick(at: size, wanted: best, modes: modes, prefer: prefer,
                    sizeReason: "\(size) is the smallest size the camera offers",
                    rateReason: rateReason(requested: nil, fallback: true))
    }

    // MARK: Picking a format at a size

    /// The preferred mode at `size` reaching `wanted` (rule 5), at its slowest reaching rate (rule 6).
    private static func pick(at size: FrameSize, wanted: FrameRateValue, modes: [Mode], prefer: [FormatFamily],
                             sizeReason: String, rateReason: String?) -> FormatChoice {
        let atSize = modes.filter { $0.size == size }
        let reaching = atSize.filter { $0.reaches(wanted) }.sorted(by: Mode.isPreferred)
        let preferred = prefer.lazy.compactMap { family in reaching.first { $0.format.family == family } }.first
        // Callers only pick sizes where some mode reaches `wanted`; fall back defensively.
        let mode = preferred ?? reaching.first ?? atSize.sorted(by: { $0.fastest > $1.fastest }).first ?? modes[0]
        let chosenRate = mode.rates.filter { $0.meets(wanted) }.min() ?? mode.fastest

        var reasons = [sizeReason]
        if let rateReason { reasons.append(rateReason) }
        if preferred != nil, mode.format.family != reaching.first?.format.family {
            reasons.append("the camera's own \(mode.format.family == .h264 ? "H.264" : "JPEG frames"), stored as they come (no decoding or encoding)")
        } else {
            reasons.append(formatReason(chosen: mode, size: size, atSize: atSize))
        }
        return FormatChoice(fourcc: mode.format.fourcc, width: size.width, height: size.height, rate: chosenRate,
                            family: mode.format.family,
                            reason: "\(mode.format.fourcc.trimmingSpaces) \(size) at \(chosenRate.roundedDescription) fps: "
                                + reasons.joined(separator: "; "))
    }

    private static func rateReason(requested: FrameRateValue?, fallback: Bool) -> String? {
        if requested != nil { return nil }  // the chosen rate is in the headline; nothing to explain
        return fallback ? "no format reaches \(defaultRate.roundedDescription) fps, so the fastest rate available is used" : nil
    }

    /// Why this format and not a more preferred one.
    private static func formatReason(chosen: Mode, size: FrameSize, atSize: [Mode]) -> String {
        let family = chosen.format.family
        let fourcc = chosen.format.fourcc.trimmingSpaces
        switch family {
        case .raw:
            return "\(fourcc) is raw, so nothing needs decoding"
        default:
            let better = atSize.filter { $0.format.family < family }.sorted(by: Mode.isPreferred)
            if let slow = better.first {
                return "\(slow.format.fourcc.trimmingSpaces) reaches only \(slow.fastest.roundedDescription) fps at \(size)"
            }
            return family == .mjpeg ? "no raw format offers \(size)" : "no raw or MJPEG format offers \(size)"
        }
    }

    // MARK: Error details

    private static func nearestSizes(to size: FrameSize, in modes: [Mode]) -> [String] {
        let sizes = Set(modes.map(\.size)).sorted { a, b in
            let da = distance(a, size), db = distance(b, size)
            return da != db ? da < db : a.area > b.area
        }
        return sizes.prefix(3).map { summary(of: $0, modes: modes) }
    }

    private static func distance(_ a: FrameSize, _ b: FrameSize) -> Int64 {
        abs(Int64(a.width) - Int64(b.width)) + abs(Int64(a.height) - Int64(b.height))
    }

    /// "1280x720 (30 fps MJPG, 10 fps YUYV)".
    static func summary(of size: FrameSize, modes: [Mode]) -> String {
        "\(size) (\(ratesAt(size, modes: modes)))"
    }

    /// "30 fps MJPG, 10 fps YUYV": each format's fastest rate at `size`, fastest first.
    private static func ratesAt(_ size: FrameSize, modes: [Mode]) -> String {
        modes.filter { $0.size == size }
            .sorted { $0.fastest != $1.fastest ? $0.fastest > $1.fastest : Mode.isPreferred($0, $1) }
            .map { "\($0.fastest.roundedDescription) fps \($0.format.fourcc.trimmingSpaces)" }
            .joined(separator: ", ")
    }

    private static func unreachableDetail(rate: FrameRateValue, size: FrameSize, modes: [Mode]) -> String {
        var text = "at \(size) it reaches \(ratesAt(size, modes: modes))"
        let elsewhere = Set(modes.filter { $0.reaches(rate) }.map(\.size)).sorted(by: smallerFirst).reversed()
        if !elsewhere.isEmpty {
            text += "; \(rate.roundedDescription) fps is available at " + elsewhere.prefix(3).map(\.description).joined(separator: ", ")
        }
        return text
    }

    private static func fastestDetail(_ modes: [Mode]) -> String {
        guard let best = modes.map(\.fastest).max() else { return "it reports no frame rates" }
        let sizes = Set(modes.filter { $0.fastest == best }.map(\.size)).sorted(by: smallerFirst).reversed()
        return "its fastest is \(best.roundedDescription) fps, at " + sizes.prefix(3).map { summary(of: $0, modes: modes) }.joined(separator: ", ")
    }

    private static func smallerFirst(_ a: FrameSize, _ b: FrameSize) -> Bool {
        a.area != b.area ? a.area < b.area : a.width < b.width
    }

    // MARK: Modes

    /// One (format, size) pair with its rates.
    struct Mode {
        let format: PixelFormat
        let order: Int
        let size: FrameSize
        let rates: [FrameRateValue]
        var fastest: FrameRateValue { rates.max() ?? FrameRateValue(1) }

        func reaches(_ wanted: FrameRateValue) -> Bool { rates.contains { $0.meets(wanted) } }

        /// Rule 5: family rank, then raw preference order, then enumeration order.
        static func isPreferred(_ a: Mode, _ b: Mode) -> Bool {
            let (fa, fb) = (a.format.family, b.format.family)
            if fa != fb { return fa < fb }
            let ra = FormatFamily.rawPreference.firstIndex(of: a.format.fourcc) ?? Int.max
            let rb = FormatFamily.rawPreference.firstIndex(of: b.format.fourcc) ?? Int.max
            if ra != rb { return ra < rb }
            return a.order < b.order
        }
    }

    static func usableModes(_ formats: [PixelFormat]) -> [Mode] {
        var modes: [Mode] = []
        for (order, format) in formats.enumerated() where format.family != .unsupported {
            for option in format.sizes where !option.rates.isEmpty {
                modes.append(Mode(format: format, order: order, size: option.size, rates: option.rates))
            }
        }
        return modes
    }
}

/// Why no format could be chosen; the message says what the camera can do instead.
public enum FormatChoiceError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The camera offers nothing camrec can record (or nothing at all); `offered` lists its fourccs.
    case noUsableFormats(offered: [String])
    /// No format offers the requested size; `nearest` describes the closest sizes it does offer.
    case sizeUnsupported(requested: FrameSize, nearest: [String])
    /// Nothing reaches the requested rate (at `size`, or at any size when nil); `available` says what does.
    case rateUnreachable(requested: FrameRateValue, size: FrameSize?, available: String)

    /// One line a person can act on.
    public var message: String {
        switch self {
        case .noUsableFormats(let offered):
            if offered.isEmpty { return "the camera reports no video formats with frame sizes and rates" }
            return "the camera offers no format camrec can record (it offers \(offered.joined(separator: ", ")); camrec records raw YUV/RGB, MJPEG and H.264)"
        case .sizeUnsupported(let requested, let nearest):
            return "the camera cannot capture \(requested); nearest sizes: \(nearest.joined(separator: ", "))"
        case .rateUnreachable(let requested, let size, let available):
            if let size { return "the camera cannot capture \(size) at \(requested.roundedDescription) fps; \(available)" }
            return "the camera cannot capture at \(requested.roundedDescription) fps; \(available)"
        }
    }

    /// Same as `message`.
    public var description: String { message }
}

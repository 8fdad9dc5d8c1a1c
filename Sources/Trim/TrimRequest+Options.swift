import CamrecCore
import MediaValues

extension TrimRequest {
    /// `camrec trim`'s INPUT, `--start`, `--end`, `--mode`, `-o OUT`, `--in-place` and
    /// `--force` as given (nil: not given), with every check that needs no media (see
    /// ``validate()``). Every refusal is a usage error.
    public static func parse(input: String?, start: String?, end: String?, mode: String?, output: String?,
                             inPlace: Bool, force: Bool) throws(CamrecError) -> TrimRequest {
        let startTime = try OptionValue.parse("--start", start) { text throws(ValueError) in try TimeSpec.parse(text, allowNegative: true) }
        let endTime = try OptionValue.parse("--end", end) { text throws(ValueError) in try TimeSpec.parse(text, allowNegative: true) }
        guard let input else {
            throw OptionValue.refusal("missing INPUT: give the movie to trim (see camrec trim --help)")
        }
        var trimMode = TrimMode.accurate
        if let mode {
            guard let chosen = TrimMode(rawValue: mode.lowercased()) else {
                throw OptionValue.refusal("--mode: unknown mode '\(mode)': use accurate, keyframe or reencode")
            }
            trimMode = chosen
        }
        let destination: TrimDestination
        switch (output, inPlace) {
        case (.some, true): throw OptionValue.refusal("give either -o OUT or --in-place, not both")
        case (.some(let path), false): destination = .path(path)
        case (.none, true): destination = .inPlace
        case (.none, false): destination = .besideInput
        }
        let request = TrimRequest(input: input, start: startTime, end: endTime, mode: trimMode, destination: destination, force: force)
        try request.validate()
        return request
    }
}

extension StillJob {
    /// `--count`, `--interval` and `--settle` of `camrec still`, typed.
    public struct Series: Sendable, Equatable {
        /// How many photos: 1 to 100000 (default 1).
        public var count: Int
        /// Time between photos (default 1 s).
        public var interval: TimeSpec
        /// The longest wait for the brightness to settle (default 3 s).
        public var settle: TimeSpec

        /// The options as given (nil: not given). Every refusal is a usage error.
        public init(count: String?, interval: String?, settle: String?) throws(CamrecError) {
            self.count = try OptionValue.parse("--count", count) { (text: String) throws(ValueError) -> Int in
                guard let value = Int(text), value > 0, value <= 100_000 else {
                    throw ValueError("invalid count '\(text)': use a whole number from 1")
                }
                return value
            } ?? 1
            self.interval = try OptionValue.parse("--interval", interval) { (text: String) throws(ValueError) in try TimeSpec.parse(text) } ?? .seconds(1)
            self.settle = try OptionValue.parse("--settle", settle) { (text: String) throws(ValueError) in try TimeSpec.parse(text) } ?? .seconds(3)
        }
    }

    /// OUTPUT and `--still-quality` as given (nil: not given): the photo's path and its
    /// format, which OUTPUT's extension picks. Every refusal is a usage error.
    public static func photo(output: String?, quality: String?) throws(CamrecError) -> (output: String, format: StillFormat) {
        let jpegQuality = try OptionValue.parse("--still-quality", quality, StillFormat.parseQuality) ?? StillFormat.defaultQuality
        guard let output else {
            throw OptionValue.refusal("missing OUTPUT: give the photo to write, e.g. camrec still photo.jpg")
        }
        guard let format = StillFormat(path: output, quality: jpegQuality) else {
            throw OptionValue.refusal("cannot tell the format of '\(output)': end OUTPUT with \(StillFormat.extensionList)")
        }
        return (output, format)
    }

    /// `--text` and `--text-lang` as given (`lang` nil: not given): the languages to read
    /// each photo's text in, nil without `--text`. Every refusal is a usage error.
    public static func textLanguages(text: Bool, lang: String?) throws(CamrecError) -> [String]? {
        guard text else {
            if lang != nil { throw OptionValue.refusal("--text-lang applies to --text: add --text, or leave it out") }
            return nil
        }
        return try TextRequest.languages(lang ?? "eng", option: "--text-lang")
    }

    /// Photos from `camera` into `photo`, taken as `series`, with `controls` and `picture`;
    /// `force`: replace OUTPUT. A photo may take longer frames: auto-exposure's frame rate is
    /// left as it is.
    public init(camera: CameraRequest, photo: (output: String, format: StillFormat), series: Series,
                controls: ControlRequest, picture: PictureRequest, force: Bool) {
        self.init(camera: camera, output: photo.output, format: photo.format, picture: picture)
        (count, interval, settle) = (series.count, series.interval, series.settle)
        self.controls = controls
        self.controls.keepFrameRate = false
        self.force = force
    }
}

import CamrecCore
import GStreamer
import MP4
#if canImport(Glibc)
import Glibc
#endif

/// One `camrec text`: reads the text of stills and of movies' frames every `--every`, and
/// prints it for people (on stdout: the text is the output) or, with `--json`, as `text`
/// lines.
public struct TextJob: Sendable {
    public var request: TextRequest

    public init(request: TextRequest) { self.request = request }

    public func run(console: Console) throws(CamrecError) -> ExitStatus {
        // The models first: a missing one is said before any file is read.
        let recognizer = try TextRecognizer(languages: request.languages, concurrent: true)
        do {
            try Runtime.initialize()
        } catch {
            throw CamrecError(.unavailable, "GStreamer cannot start (\(error)): camrec doctor says what is missing")
        }
        for input in request.inputs {
            guard access(input, R_OK) == 0 else {
                throw CamrecError(.noCamera, "\(input): no such file, or it cannot be read: give a still (.jpg, .png) or a movie")
            }
        }
        var found = 0
        for input in request.inputs {
            let several = request.inputs.count > 1 || !TextRequest.isStill(input)
            let each = { (result: TextResult) in
                found += result.words.count
                show(result, console: console, several: several)
            }
            if TextRequest.isStill(input) {
                each(try Self.readStill(input, recognizer, region: request.region, minimumConfidence: request.minimumConfidence))
            } else {
                try readMovie(input, recognizer, each)
            }
        }
        if found == 0 { console.say("camrec: no text found") }
        return .success
    }

    private func show(_ result: TextResult, console: Console, several: Bool) {
        if console.json {
            console.emit(result, type: "text")
            return
        }
        if several {
            let when = result.captured ?? result.time.map { "\($0) s" }
            print("== \(result.input)" + (when.map { " at \($0)" } ?? "") + " ==")
        }
        if !result.text.isEmpty { print(result.text) }
    }

    /// The text of the still at `path` (within `region`), with its EXIF capture time.
    static func readStill(_ path: String, _ recognizer: TextRecognizer, region: TextRegion?,
                          minimumConfidence: Double) throws(CamrecError) -> TextResult {
        let grabber = try FrameGrabber(path: path, width: nil, height: nil)
        guard let frame = grabber.first, let grey = GreyImage(rgb: frame.rgb, width: grabber.width, height: grabber.height) else {
            throw CamrecError(.invalidInput, "\(path) holds no picture camrec can decode: give a .jpg or .png")
        }
        let words = try recognizer.recognize(grey, region: region)
        return TextResult(input: path, time: nil, captured: Self.stillCaptureTime(path), width: grey.width, height: grey.height,
                          region: region, languages: recognizer.languages, words: words, minimumConfidence: minimumConfidence)
    }

    /// Reads a movie's frame every `--every`, giving each result to `each` as it comes.
    private func readMovie(_ path: String, _ recognizer: TextRecognizer, _ each: (TextResult) -> Void) throws(CamrecError) {
        let grabber = try FrameGrabber(path: path, width: nil, height: nil)
        let captured = CaptureTimeStamp.read(path: path)
        let step = UInt64(request.every.nanoseconds)
        // A keyframe within a quarter of the step (at most half a second) stands for its moment.
        let tolerance = min(step / 4, 500_000_000)
        var moment: UInt64 = 0
        var previous: UInt64?
        repeat {
            defer { moment += step }
            guard let frame = moment == 0 ? grabber.first : grabber.frame(at: moment, tolerance: tolerance),
                  let grey = GreyImage(rgb: frame.rgb, width: grabber.width, height: grabber.height)
            else {
                // A movie's last second may hold no frame to seek to (its frames shifted by
                // an edit list, as ffmpeg writes for B-frames): the movie is read to its end.
                if moment > 0, moment + 1_000_000_000 >= grabber.duration { return }
                throw CamrecError(.invalidInput, "\(path): cannot decode the frame at \(ContactSheet.clock(moment))")
            }
            // Two moments that land on one frame (a keyframe standing for both) read it once.
            guard frame.pts != previous else { continue }
            previous = frame.pts
            let time = frame.pts > grabber.firstPTS ? frame.pts - grabber.firstPTS : 0
            let words = try recognizer.recognize(grey, region: request.region)
            each(TextResult(input: path, time: (Double(time) / 1e6).rounded() / 1e3,
                                      captured: captured?.adding(milliseconds: Int64(time / 1_000_000)).iso8601,
                                      width: grey.width, height: grey.height, region: request.region,
                                      languages: recognizer.languages, words: words, minimumConfidence: request.minimumConfidence))
        } while moment < grabber.duration
    }

    /// A still's capture time from its EXIF (as `camrec ls` reads it), in the zone it gives
    /// or else the local one; nil without one.
    static func stillCaptureTime(_ path: String) -> String? {
        guard let head = FileHead.read(path, count: 64 << 10) else { return nil }
        let still = StillHead(head, png: StillFormat(path: path) == .png)
        guard let milliseconds = still.captureMilliseconds else { return nil }
        var seconds = time_t(milliseconds / 1000)
        var parts = tm()
        let offset = still.captureOffsetSeconds ?? (localtime_r(&seconds, &parts) != nil ? Int(parts.tm_gmtoff) : 0)
        return CaptureTimeStamp(unixMilliseconds: milliseconds, utcOffsetSeconds: offset).iso8601
    }
}

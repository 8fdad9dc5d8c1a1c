import CamrecCore
#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import GStreamer

/// Checks a movie given as a source (`--device file:PATH`) before anything starts, with
/// GStreamer's discoverer, and chooses the frames the recording gets from it. Every
/// failure is an error a person can act on, with its own exit status: no such file (66),
/// not a movie or no picture in it (65), no decoder installed for it (69, naming the
/// Debian package).
enum MovieProbe {
    /// The frame rate of a movie that does not say its own (variable rate).
    static let defaultRate = FrameRateValue(numerator: 30, denominator: 1)

    /// The source for the movie at `path`, at `size` and `rate` when given (else the
    /// movie's own; scaled and made steady by the feeder).
    static func resolve(path: String, size: FrameSize?, rate: FrameRateValue?) throws(CamrecError) -> CameraResolver.Resolution {
        let absolute = SoundFiles.realPath(path)
        var status = stat()
        guard let absolute, stat(absolute, &status) == 0 else {
            throw CamrecError(.noCamera, "--device file:\(path): no such file: give the path of a movie (MP4, MOV, MKV, WebM)")
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw CamrecError(.invalidInput, "--device file:\(path) is not a file: give the path of a movie (MP4, MOV, MKV, WebM)")
        }
        guard access(absolute, R_OK) == 0 else {
            throw CamrecError(.permissionDenied, "--device file:\(path): not allowed to read it: check its permissions")
        }
        let media: DiscoveredMedia
        do {
            media = try MediaDiscovery.discover(uri: "file://" + percentEncoded(absolute), timeoutNanoseconds: 10_000_000_000)
        } catch {
            throw CamrecError(.unavailable, "--device file:\(path): \(error)")
        }
        let movie = try check(media, path: path)
        return resolution(movie, media: media, path: absolute, given: path, size: size, rate: rate)
    }

    /// The movie's video stream, or why it cannot be played.
    static func check(_ media: DiscoveredMedia, path: String) throws(CamrecError) -> DiscoveredMedia.Video {
        let name = "--device file:\(path)"
        switch media.outcome {
        case .readable:
            break
        case .timedOut:
            throw CamrecError(.invalidInput, "\(name): GStreamer could not read it within 10 s: check that it is a whole movie (ffprobe shows what it holds)")
        case .unreadable(let message):
            throw CamrecError(.invalidInput, "\(name) is not a movie GStreamer can read (\(message.trimmingSuffix("."))): give an MP4, MOV, MKV or WebM movie")
        case .missingPlugins(let details):
            let missing = details.map(MissingPlugin.init)
            // A sound track without a decoder does not stop the picture (the sound is not recorded).
            if let video = missing.first(where: { !$0.isSound }) ?? (media.videos.isEmpty ? missing.first : nil) {
                throw CamrecError(.unavailable, "\(name) needs a GStreamer plugin that is not installed (\(video.description)): install it with: sudo apt-get install \(PluginPackages.decoderPackage(for: video.mediaType))")
            }
        }
        guard let video = media.videos.first(where: { !$0.isImage }) else {
            if media.videos.contains(where: \.isImage) {
                throw CamrecError(.invalidInput, "\(name) is a still picture, not a movie: give a movie (MP4, MOV, MKV, WebM)")
            }
            throw CamrecError(.invalidInput, "\(name) has no video track\(media.sounds.isEmpty ? "" : " (only sound)"): give a movie with a picture")
        }
        guard video.width >= 2, video.height >= 2 else {
            throw CamrecError(.invalidInput, "\(name): its video track says no picture size (\(video.width)x\(video.height)): check it with ffprobe")
        }
        return video
    }

    /// The recording's frames from `video`: `size` or the movie's own (even, as 4:2:0
    /// pictures need), at `rate` or the movie's own (30 fps for a movie without one).
    static func resolution(_ video: DiscoveredMedia.Video, media: DiscoveredMedia, path: String, given: String,
                           size: FrameSize?, rate: FrameRateValue?) -> CameraResolver.Resolution {
        let own = FrameSize(width: video.width - video.width % 2, height: video.height - video.height % 2)
        let chosenSize = size ?? own
        var reasons: [String] = []
        reasons.append(size == nil ? "the movie's own \(own)" : "scaled from the movie's \(video.width)x\(video.height)")
        let ownRate = video.rateNumerator > 0 && video.rateDenominator > 0
            ? FrameRateValue(numerator: video.rateNumerator, denominator: video.rateDenominator) : nil
        let chosenRate = rate ?? ownRate ?? defaultRate
        if rate != nil, let ownRate, ownRate != chosenRate {
            reasons.append("\(chosenRate) fps made from its \(ownRate)")
        } else if ownRate == nil, rate == nil {
            reasons.append("\(chosenRate) fps (the movie has no steady rate; --fps picks another)")
        } else {
            reasons.append("\(chosenRate) fps")
        }
        let format = CameraFormat(fourcc: "I420", caps: MovieSource.caps(size: chosenSize, rate: chosenRate),
                                  size: chosenSize, rate: chosenRate, decoding: .none, reason: reasons.joined(separator: ", "))
        var movie = MovieSource(path: path, format: format, hasSound: !media.sounds.isEmpty,
                                duration: media.duration.map { Double($0) / 1e9 })
        movie.changesRate = ownRate != chosenRate
        var resolution = CameraResolver.Resolution(source: .movie(movie), size: chosenSize, rate: chosenRate)
        resolution.name = "movie " + (given.split(separator: "/").last.map(String.init) ?? given)
        resolution.maker = "camrec"
        return resolution
    }

    /// `path` with every byte a URI cannot hold as it is written %XX.
    static func percentEncoded(_ path: String) -> String {
        var encoded = ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "/"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"):
                encoded.append(Character(Unicode.Scalar(byte)))
            default:
                encoded += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return encoded
    }

    /// A missing plugin, from its installer detail
    /// ("gstreamer|1.0|APP|H.265 (Main Profile) decoder|decoder-video/x-h265, …").
    struct MissingPlugin {
        /// What it is for people, e.g. "H.265 (Main Profile) decoder".
        var description: String
        /// The media type it would handle, e.g. "video/x-h265".
        var mediaType: String

        init(_ detail: String) {
            let fields = detail.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            description = fields.count > 3 ? fields[3] : detail
            let kind = fields.count > 4 ? fields[4] : ""
            // "decoder-video/x-h265, alignment=…" → "video/x-h265".
            let type = kind.split(separator: "-", maxSplits: 1).last.map(String.init) ?? kind
            mediaType = String(type.prefix { $0 != "," && $0 != " " })
        }

        var isSound: Bool { mediaType.hasPrefix("audio/") }
    }
}

private extension String {
    func trimmingSuffix(_ suffix: String) -> String { hasSuffix(suffix) ? String(dropLast(suffix.count)) : self }
    func leftPadded(to length: Int) -> String { String(repeating: "0", count: max(0, length - count)) + self }
}

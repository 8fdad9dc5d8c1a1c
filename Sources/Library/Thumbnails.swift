import CamrecCore
import GStreamer
import Stills
#if canImport(Glibc)
import Glibc
import MediaValues
#endif

/// `camrec ls --thumbs`: one small JPEG per movie and clip, in a hidden `.thumbs` folder
/// beside it (`.thumbs/cam-0001.mp4.jpg`, 160 pixels wide), made from the keyframe nearest
/// the movie's middle, and reused while it is newer than its movie.
package enum Thumbnails {
    /// The folder's name, beside the movies.
    package static let folderName = ".thumbs"
    /// A thumbnail's width in pixels (its height keeps the movie's shape).
    static let width = 160

    /// Where the thumbnail of the movie at `path` is.
    static func path(for movie: String) -> String {
        let name = folderName + "/" + PathName.last(movie) + ".jpg"
        return movie.contains("/") ? Library.folder(of: movie) + "/" + name : name
    }

    /// The outcome for one movie.
    package enum Outcome: Equatable {
        /// Written now.
        case made(String)
        /// Already there and newer than the movie.
        case reused(String)
    }

    /// The thumbnail of `movie`, made unless one newer than the movie is there.
    package static func ensure(_ movie: String) throws(CamrecError) -> Outcome {
        let thumbnail = path(for: movie)
        var movieInfo = stat()
        var thumbnailInfo = stat()
        guard stat(movie, &movieInfo) == 0 else { throw CamrecError(.noCamera, "\(movie): no such movie") }
        if stat(thumbnail, &thumbnailInfo) == 0, thumbnailInfo.st_size > 0, !isOlder(thumbnailInfo, than: movieInfo) {
            return .reused(thumbnail)
        }
        do {
            try Runtime.initialize()
        } catch {
            throw CamrecError(.unavailable, "GStreamer cannot start (\(error)): camrec doctor says what is missing")
        }
        let grabber = try FrameGrabber(path: movie, width: width, height: nil)
        let middle = grabber.duration / 2
        guard let frame = grabber.frame(at: middle, tolerance: max(middle, 1)) else {
            throw CamrecError(.invalidInput, "\(movie): cannot decode a frame for its thumbnail")
        }
        guard let caps = try? Caps("video/x-raw,format=RGB,width=\(grabber.width),height=\(grabber.height),framerate=0/1"),
              let buffer = Buffer(bytes: frame.rgb), let sample = Sample(buffer: buffer, caps: caps)
        else { throw CamrecError(.failure, "cannot hold a thumbnail in memory") }
        let bytes = try StillEncoder(format: .jpeg(quality: 80)).encode(sample)
        let folder = Library.folder(of: thumbnail)
        if mkdir(folder, 0o755) != 0, errno != EEXIST {
            throw CamrecError(.cannotCreateOutput, "cannot make \(folder) for the thumbnails: \(String(cString: strerror(errno)))")
        }
        try AtomicFile.write(bytes, to: thumbnail, replace: true)
        return .made(thumbnail)
    }

    private static func isOlder(_ a: stat, than b: stat) -> Bool {
        a.st_mtim.tv_sec != b.st_mtim.tv_sec ? a.st_mtim.tv_sec < b.st_mtim.tv_sec : a.st_mtim.tv_nsec < b.st_mtim.tv_nsec
    }
}

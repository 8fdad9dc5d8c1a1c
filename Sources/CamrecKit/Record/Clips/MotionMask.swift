import FoundationEssentials
import GStreamer
#if canImport(Glibc)
import Glibc
#endif

/// `--motion-mask FILE.png`: where the motion trigger looks. The PNG (any size: it is
/// scaled to the picture the detector compares, 64 pixels wide) is read as grey: light
/// pixels are watched, dark ones (below mid-grey) ignored. Paint black over a tree, a road
/// or a clock to keep them from triggering clips.
public enum MotionMask {
    /// Reads `path` for pictures of `size` (the movie's): one flag per pixel of the
    /// detector's picture, true where it looks. Exit 65 (invalid input) for a missing file,
    /// a file that is not a PNG, or a mask that ignores everything.
    public static func load(_ path: String, size: FrameSize) throws(CamrecError) -> [Bool] {
        let image = try OverlayImage.load(path, position: .topLeft, option: "--motion-mask")
        let width = MotionSettings.width
        let height = MotionSettings.height(for: size)
        let location = "\"" + Pipeline.escapeForParser(image.path) + "\""
        let description = "filesrc location=\(location) ! pngdec ! videoconvert ! videoscale"
            + " ! video/x-raw,format=GRAY8,width=\(width),height=\(height) ! appsink name=sink"
        var grey: [UInt8] = []
        do {
            let pipeline = try Pipeline.withBuiltIns(description)
            defer { _ = try? pipeline.setState(.null) }
            let sink = try AppSink(pipeline.element(named: "sink"))
            _ = try pipeline.setState(.paused)
            grey = sink.pullPreroll(timeoutNanoseconds: 10_000_000_000)?.bytes ?? []
        } catch {
            throw CamrecError(.invalidInput, "--motion-mask \(path): cannot read the image (\(error)): give a PNG file")
        }
        guard grey.count >= width * height else {
            throw CamrecError(.invalidInput, "--motion-mask \(path): cannot read the image: give a PNG file")
        }
        let mask = grey.prefix(width * height).map { $0 >= 128 }
        guard mask.contains(true) else {
            throw CamrecError(.invalidInput, "--motion-mask \(path) is dark all over, so nothing would be watched: paint the regions to watch white")
        }
        return mask
    }
}

import CamrecCore
import GStreamer

/// Decodes one movie's frames at chosen moments, scaled to a tile as RGB: a paused
/// pipeline seeked to each moment. A keyframe near enough the moment stands for it (only
/// it is decoded); otherwise the frame at the moment is decoded exactly.
package final class FrameGrabber {
    private let pipeline: Pipeline
    private let sink: AppSink
    /// The movie's length (ns).
    package let duration: UInt64
    /// The first frame's timestamp: a moment's time counts from it.
    package let firstPTS: UInt64
    /// The tiles' size: `width`, and the movie's aspect (or the height asked for).
    package let width: Int
    /// The tiles' height.
    package let height: Int

    /// One decoded tile.
    package struct Frame {
        /// Its timestamp (ns; minus `firstPTS`: its time in the movie).
        package var pts: UInt64
        /// Rows of `width` RGB pixels, `height` of them, packed.
        package var rgb: [UInt8]
        /// Whether it is the keyframe that stood for the moment (decoded alone).
        var isKeyframe = false
    }

    /// The first frame (a still's only one), decoded when the movie is opened.
    package let first: Frame?

    /// Opens `path` for tiles `width` wide (nil: the movie's own size) and `height` high
    /// (nil: as the movie's aspect).
    package init(path: String, width: Int?, height: Int?) throws(CamrecError) {
        let location = "\"" + Pipeline.escapeForParser(path) + "\""
        let size = (width.map { "width=\($0)," } ?? "") + (height.map { "height=\($0)," } ?? "")
        let description = "filesrc location=\(location) ! decodebin ! videoconvert ! videoscale add-borders=true"
            + " ! video/x-raw,format=RGB,\(size)pixel-aspect-ratio=1/1 ! appsink name=grab sync=false max-buffers=1"
        let pipeline: Pipeline
        let sink: AppSink
        do {
            pipeline = try Pipeline.withBuiltIns(description)
            sink = try AppSink(pipeline.element(named: "grab"))
            _ = try pipeline.setState(.paused)
        } catch {
            throw CamrecError(.failure, "cannot read \(path): \(error)")
        }
        guard case .reached = pipeline.waitForStateChange(timeoutNanoseconds: 20_000_000_000),
              let preroll = sink.pullPreroll(timeoutNanoseconds: 5_000_000_000), let layout = preroll.caps?.videoLayout
        else {
            _ = try? pipeline.setState(.null)
            throw CamrecError(.invalidInput, "\(path) holds no picture camrec can decode: give a movie (.mp4, .mov, .mkv)")
        }
        self.pipeline = pipeline
        self.sink = sink
        self.width = layout.width
        self.height = layout.height
        // A still decoded alone may have no timestamp: its time is 0.
        let pts = preroll.timing?.pts ?? 0
        firstPTS = pts
        first = preroll.packedRGB(width: layout.width, height: layout.height).map { Frame(pts: pts, rgb: $0) }
        duration = pipeline.queryDuration() ?? 0
    }

    deinit { _ = try? pipeline.setState(.null) }

    /// The frame for the moment `time` (ns into the movie): the nearest keyframe when it is
    /// within `tolerance`, else the frame at `time`. Nil when the movie cannot be decoded there.
    package func frame(at time: UInt64, tolerance: UInt64) -> Frame? {
        let target = firstPTS + time
        if var near = grab(target, flags: [.flush, .keyUnit, .snapNearest]),
           (near.pts > target ? near.pts - target : target - near.pts) <= tolerance {
            near.isKeyframe = true
            return near
        }
        return grab(target, flags: [.flush, .accurate])
    }

    private func grab(_ target: UInt64, flags: SeekFlags) -> Frame? {
        guard pipeline.seek(to: target, flags: flags),
              let sample = sink.pullPreroll(timeoutNanoseconds: 10_000_000_000), let pts = sample.timing?.pts
        else { return nil }
        let rgb = sample.packedRGB(width: width, height: height)
        return rgb.map { Frame(pts: pts, rgb: $0) }
    }
}

import GStreamer

/// Which Debian package provides a GStreamer element, for "install X" hints (camrec's
/// knowledge, not the bindings': they only say how to look).
package enum PluginPackages {
    private static let packages: [String: String] = [
        "x264enc": "gstreamer1.0-plugins-ugly",
        "openh264enc": "gstreamer1.0-plugins-bad",
        "h264parse": "gstreamer1.0-plugins-bad",
        "h265parse": "gstreamer1.0-plugins-bad",
        "v4l2src": "gstreamer1.0-plugins-good",
        "jpegdec": "gstreamer1.0-plugins-good",
        "jpegenc": "gstreamer1.0-plugins-good",
        "pngenc": "gstreamer1.0-plugins-good",
        "mp4mux": "gstreamer1.0-plugins-good",
        "qtmux": "gstreamer1.0-plugins-good",
        "qtdemux": "gstreamer1.0-plugins-good",
        "matroskamux": "gstreamer1.0-plugins-good",
        "matroskademux": "gstreamer1.0-plugins-good",
        "avdec_h264": "gstreamer1.0-libav",
        "videotestsrc": "gstreamer1.0-plugins-base",
        "videoconvert": "gstreamer1.0-plugins-base",
        "videoscale": "gstreamer1.0-plugins-base",
        "appsink": "gstreamer1.0-plugins-base",
        "appsrc": "gstreamer1.0-plugins-base",
        "videoflip": "gstreamer1.0-plugins-good",
        "gdkpixbufoverlay": "gstreamer1.0-plugins-good",
        "textoverlay": "gstreamer1.0-x",
        // Video encoders (issue 14's --encoder): software, then hardware.
        "x265enc": "gstreamer1.0-plugins-bad",
        "v4l2h264enc": "gstreamer1.0-plugins-good",
        "v4l2h265enc": "gstreamer1.0-plugins-good",
        "vah264enc": "gstreamer1.0-plugins-bad",
        "vah265enc": "gstreamer1.0-plugins-bad",
        "vah264lpenc": "gstreamer1.0-plugins-bad",
        "vaapih264enc": "gstreamer1.0-vaapi",
        "vaapih265enc": "gstreamer1.0-vaapi",
        "nvh264enc": "gstreamer1.0-plugins-bad",
        "nvh265enc": "gstreamer1.0-plugins-bad",
        "qsvh264enc": "gstreamer1.0-plugins-bad",
    ]

    /// The Debian package that provides `factory`, when known (every `avenc_*` element is
    /// in gstreamer1.0-libav).
    package static func package(for factory: String) -> String? {
        if let package = packages[factory] { return package }
        if factory.hasPrefix("avenc_") || factory.hasPrefix("avdec_") { return "gstreamer1.0-libav" }
        return nil
    }

    /// A hint such as "install the Debian package gstreamer1.0-plugins-ugly".
    static func hint(for factory: String) -> String {
        if let package = package(for: factory) {
            return "install it with: sudo apt-get install \(package)"
        }
        return GStreamerError.lookHint(for: factory)
    }
}

extension GStreamerError {
    /// A missing element with the Debian package that provides it named, when camrec knows
    /// it; any other error as it is.
    package var namingPackage: GStreamerError {
        guard case .missingElement(let factory, _) = self, PluginPackages.package(for: factory) != nil else { return self }
        return .missingElement(factory, hint: PluginPackages.hint(for: factory))
    }
}

extension PluginPackages {
    /// The Debian package whose plugins decode or demux `mediaType` (e.g. "video/x-vp9",
    /// "video/quicktime"), for a movie GStreamer cannot read; gstreamer1.0-libav, which
    /// decodes most formats, when camrec knows no better.
    package static func decoderPackage(for mediaType: String) -> String {
        switch mediaType {
        case "video/x-vp8", "video/x-vp9", "video/quicktime", "video/x-matroska", "video/webm", "image/jpeg", "image/png",
             "video/x-raw", "video/x-msvideo", "audio/x-flac":
            "gstreamer1.0-plugins-good"
        case "video/x-theora", "audio/x-vorbis", "audio/x-opus", "application/ogg":
            "gstreamer1.0-plugins-base"
        case "video/x-av1", "video/mpegts", "video/x-ivf":
            "gstreamer1.0-plugins-bad"
        default:
            "gstreamer1.0-libav"
        }
    }
}

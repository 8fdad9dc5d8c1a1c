import GStreamer

/// GStreamer and the plugins camrec needs, by Debian package; the hardware encoders.
enum PluginChecks {
    /// A GStreamer element camrec uses, and the Debian package it comes from.
    struct NeededElement: Sendable {
        let factory: String
        let package: String
        /// Needed for every recording (a problem when missing), or only for a feature (a warning).
        let required: Bool
        /// What camrec uses it for, for the message when it is missing.
        let use: String
    }

    /// Every element camrec's pipelines and trim use (pipelines/, Stills, Trim).
    static let neededElements: [NeededElement] = [
        .init(factory: "queue", package: "libgstreamer1.0-0", required: true, use: "every pipeline"),
        .init(factory: "tee", package: "libgstreamer1.0-0", required: true, use: "recording"),
        .init(factory: "capsfilter", package: "libgstreamer1.0-0", required: true, use: "recording"),
        .init(factory: "filesrc", package: "libgstreamer1.0-0", required: true, use: "trim"),
        .init(factory: "filesink", package: "libgstreamer1.0-0", required: true, use: "recording"),
        .init(factory: "fakesink", package: "libgstreamer1.0-0", required: true, use: "trim"),
        .init(factory: "videotestsrc", package: "gstreamer1.0-plugins-base", required: true, use: "--device test"),
        .init(factory: "videoconvert", package: "gstreamer1.0-plugins-base", required: true, use: "recording"),
        .init(factory: "appsink", package: "gstreamer1.0-plugins-base", required: true, use: "stills"),
        .init(factory: "appsrc", package: "gstreamer1.0-plugins-base", required: true, use: "stills and trim"),
        .init(factory: "v4l2src", package: "gstreamer1.0-plugins-good", required: true, use: "cameras"),
        .init(factory: "jpegdec", package: "gstreamer1.0-plugins-good", required: true, use: "MJPEG cameras"),
        .init(factory: "jpegenc", package: "gstreamer1.0-plugins-good", required: true, use: "JPEG stills"),
        .init(factory: "pngenc", package: "gstreamer1.0-plugins-good", required: true, use: "PNG stills"),
        .init(factory: "mp4mux", package: "gstreamer1.0-plugins-good", required: true, use: "MP4 movies"),
        .init(factory: "qtmux", package: "gstreamer1.0-plugins-good", required: true, use: "MOV movies"),
        .init(factory: "matroskamux", package: "gstreamer1.0-plugins-good", required: true, use: "MKV movies"),
        .init(factory: "splitmuxsink", package: "gstreamer1.0-plugins-good", required: true, use: "--segment"),
        .init(factory: "qtdemux", package: "gstreamer1.0-plugins-good", required: true, use: "trim of MP4 and MOV"),
        .init(factory: "matroskademux", package: "gstreamer1.0-plugins-good", required: true, use: "trim of MKV"),
        .init(factory: "h264parse", package: "gstreamer1.0-plugins-bad", required: true, use: "every movie"),
        .init(factory: "h265parse", package: "gstreamer1.0-plugins-bad", required: false, use: "trim of HEVC movies"),
        .init(factory: "mpeg4videoparse", package: "gstreamer1.0-plugins-bad", required: false, use: "trim of MPEG-4 Part 2 movies"),
        .init(factory: "gdkpixbufoverlay", package: "gstreamer1.0-plugins-good", required: false, use: "--overlay-image"),
        .init(factory: "textoverlay", package: "gstreamer1.0-x", required: false, use: "--overlay (needs a font too: fonts-dejavu-core)"),
        .init(factory: "x264enc", package: "gstreamer1.0-plugins-ugly", required: true, use: "H.264 encoding"),
        .init(factory: "avdec_h264", package: "gstreamer1.0-libav", required: true, use: "H.264 cameras and trim"),
        .init(factory: "avdec_h265", package: "gstreamer1.0-libav", required: false, use: "trim of HEVC movies"),
        .init(factory: "avdec_mpeg4", package: "gstreamer1.0-libav", required: false, use: "trim of MPEG-4 Part 2 movies"),
    ]

    /// The Debian packages of `neededElements`, in the order they first appear.
    static var packages: [String] {
        var seen: [String] = []
        for element in neededElements where !seen.contains(element.package) { seen.append(element.package) }
        return seen
    }

    /// The GStreamer library: initialised, and its version. A problem (69) when it cannot start.
    static func gstreamer() -> DoctorCheck {
        do {
            try Runtime.initialize()
        } catch {
            return .problem(.gstreamer, "GStreamer", CamrecError(.unavailable, error.description),
                            fix: "sudo apt-get install libgstreamer1.0-0 gstreamer1.0-plugins-base")
        }
        return DoctorCheck(.gstreamer, "GStreamer", .ok, "version \(GStreamerVersion.running)")
    }

    /// One check per Debian package: which of its elements are missing. `exists` tells
    /// whether an element factory is installed (injected for tests).
    static func packageChecks(exists: (String) -> Bool = elementExists) -> [DoctorCheck] {
        packages.map { package in
            let elements = neededElements.filter { $0.package == package }
            let missing = elements.filter { !exists($0.factory) }
            let install = "sudo apt-get install \(package)"
            var check: DoctorCheck
            if missing.isEmpty {
                check = DoctorCheck(.plugin, package, .ok, "installed: " + elements.map(\.factory).joined(separator: ", "))
            } else {
                let uses = missing.map { "\($0.factory) (\($0.use))" }.joined(separator: ", ")
                if missing.contains(where: \.required) {
                    check = .problem(.plugin, package, CamrecError(.unavailable, "missing: \(uses)"), fix: install)
                } else {
                    check = DoctorCheck(.plugin, package, .warning, "missing: \(uses)", fix: install)
                }
            }
            check.package = package
            return check
        }
    }

    /// gst-rtsp-server, which `--serve` loads when it starts (nothing else needs it): a
    /// warning when it cannot be loaded. `problem` says why not, or nil (injected for tests).
    static func serveCheck(problem: () -> String? = { LiveStreamServer.libraryProblem }) -> DoctorCheck {
        let package = LiveStreamServer.package
        var check: DoctorCheck
        if let reason = problem() {
            check = DoctorCheck(.plugin, package, .warning, "gst-rtsp-server cannot be loaded (\(reason)): --serve is unavailable",
                                fix: "sudo apt-get install \(package)")
        } else {
            check = DoctorCheck(.plugin, package, .ok, "gst-rtsp-server loads: --serve can stream")
        }
        check.package = package
        return check
    }

    /// Whether GStreamer can make an element of `factory`.
    static func elementExists(_ factory: String) -> Bool {
        (try? Element.make(factory)) != nil
    }

    /// A well-known hardware H.264 encoder (DESIGN §7 "Hardware encoders"), named when it is
    /// not installed, with what it needs.
    struct HardwareEncoder: Sendable {
        let factory: String
        /// What it needs to exist and open.
        let needs: String
    }

    static let hardwareEncoders: [HardwareEncoder] = [
        .init(factory: "v4l2h264enc", needs: "a V4L2 memory-to-memory encoder such as a Raspberry Pi 4's (gstreamer1.0-plugins-good)"),
        .init(factory: "vah264enc", needs: "a VA-API driver that can encode, e.g. intel-media-va-driver or mesa-va-drivers (gstreamer1.0-plugins-bad)"),
        .init(factory: "vaapih264enc", needs: "gstreamer1.0-vaapi and a VA-API driver that can encode"),
        .init(factory: "nvh264enc", needs: "an NVIDIA GPU with its driver's libcuda and libnvidia-encode (gstreamer1.0-plugins-bad)"),
    ]

    /// One check per hardware encoder: each one installed (`EncoderCatalog`, any codec), tried
    /// as `--encoder auto` tries it (`EncoderTrial`: a few test frames), then each well-known
    /// one that is not installed. Never a problem: software encoding is the fallback.
    static func encoderChecks() -> [DoctorCheck] {
        encoderChecks(installed: EncoderCatalog.allCandidates().filter(\.isHardware)) { candidate in
            EncoderTrial.run(element: candidate.factory, codec: candidate.codec, size: EncoderTrial.listingSize,
                             rate: EncoderTrial.listingRate, frames: EncoderSelection.trialFrames)
        }
    }

    /// The checks for the `installed` hardware encoders and their `trial` outcomes (injected
    /// for tests), then the well-known ones not installed.
    static func encoderChecks(installed: [EncoderCandidate], trial: (EncoderCandidate) -> TrialOutcome) -> [DoctorCheck] {
        let present = installed.map { candidate -> DoctorCheck in
            let codec = candidate.codec.displayName
            switch trial(candidate) {
            case .works:
                return DoctorCheck(.encoder, candidate.factory, .ok, "works: it encoded test frames to \(codec); --encoder auto tries it before software")
            case .fails(let reason):
                return DoctorCheck(.encoder, candidate.factory, .info,
                                   "installed, but it does not work here (\(reason)); --encoder auto skips it")
            }
        }
        let absent = hardwareEncoders.filter { known in !installed.contains { $0.factory == known.factory } }.map { encoder in
            DoctorCheck(.encoder, encoder.factory, .info, "not available: it needs \(encoder.needs)")
        }
        return present + absent
    }
}

import CRTSPServerShim
import FoundationEssentials
import GStreamer
import Synchronization

/// The RTSP server of `--serve` (gst-rtsp-server): one shared mount, `/live`, whose media is
/// `appsrc ! parser ! RTP payloader`, fed with the recording's own encoded frames (no second
/// encode), and a second such chain for the sound when the movie has sound. Every client watches the same media; one that stalls is dropped by the server's
/// own backlog limit, and the feed never blocks: the recording's branch is a leaky queue
/// into an appsink that drops, and the media's appsrc is leaky too.
///
/// Several cameras in movies of their own (`startCameras`): one server, on one port, with
/// one such mount per camera, `/camera1`, `/camera2`, …; each camera's `LiveStreamServer`
/// feeds its own mount, and closing any of them closes the server.
///
/// Owns one `CamrecRtspServer` (the C side, with its own thread and main loop): `close()`
/// (or the last reference going) disconnects the clients and frees it, exactly once.
public final class LiveStreamServer: Sendable {
    /// `rtsp://ADDR:PORT/live`, with the port actually listened on (for a wildcard address,
    /// the first of `urls`).
    public let url: String
    /// Every URL clients can use (several for a wildcard address: one per interface address).
    public let urls: [String]
    /// The server, shared by every camera's mount.
    private let shared: Shared
    /// This server's mount in the C server (0 for the first).
    private let mount: Int32

    /// The C server's pointer. Every use is under the mutex, so it may cross threads.
    // `@unchecked` stays: a C pointer, owned for the server's life, is never Sendable to the
    // compiler, and a bare one cannot be handed to the `Mutex` (`sending`) either: the
    // compiler ties it to the C strings it was made from, which are freed after. The `Mutex`
    // holding it is what makes sharing it safe.
    private struct Handle: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    /// The owned C server, nil once closed; freed at the latest when the last camera's
    /// mount goes.
    private final class Shared: Sendable {
        let server: Mutex<Handle?>

        init(_ pointer: OpaquePointer) { server = Mutex(Handle(pointer: pointer)) }

        deinit { close() }

        func close() {
            let handle = server.withLock { handle in
                defer { handle = nil }
                return handle
            }
            if let handle { camrec_rtsp_server_free(handle.pointer) }
        }
    }

    /// The media every client gets, for the recording's `codec` and `sound`; nil when the
    /// picture cannot be served.
    static func media(for codec: VideoCodec, sound: AudioCodec? = nil) -> String? {
        let feed = { (name: String) in
            "appsrc name=\(name) is-live=true format=time max-bytes=0 max-buffers=120 leaky-type=downstream block=false"
        }
        let picture: String
        switch codec {
        case .h264: picture = "\(feed("feed")) ! h264parse config-interval=-1 ! rtph264pay name=pay0 pt=96 config-interval=-1"
        // H.265 does not reach clients yet (ffprobe finds no stream in what rtph265pay sends),
        // and Motion JPEG is not packetised: both are refused rather than served broken.
        case .h265, .mjpeg: return nil
        }
        var sounds = ""
        switch sound {
        case .aac?: sounds = " \(feed("sound")) ! aacparse ! rtpmp4gpay name=pay1 pt=97"
        case .opus?: sounds = " \(feed("sound")) ! opusparse ! rtpopuspay name=pay1 pt=97"
        case nil: break
        }
        return "( " + picture + sounds + " )"
    }

    /// The Debian package of gst-rtsp-server's library.
    public static let package = "libgstrtspserver-1.0-0"

    /// Why gst-rtsp-server cannot be loaded (camrec loads it for `--serve` only, not at
    /// start-up), or nil when it can.
    public static var libraryProblem: String? {
        var failure: UnsafeMutablePointer<CChar>?
        guard camrec_rtsp_server_available(&failure) == 0 else { return nil }
        defer { g_free(failure) }
        return failure.map { String(cString: $0) } ?? "it could not be loaded"
    }

    /// Listens as `settings` says and serves the `codec` stream, with `sound` when the movie
    /// has it; throws when the codec cannot be served or the address cannot be listened on
    /// (taken, not this machine's).
    public static func start(_ settings: ServeSettings, codec: VideoCodec, sound: AudioCodec? = nil) throws(CamrecError) -> LiveStreamServer {
        try start(settings, mounts: [(ServeSettings.path, codec, sound)])[0]
    }

    /// Several cameras in movies of their own: one server listening as `settings` says,
    /// with one mount per camera (`ServeSettings.cameraPath`), each serving that camera's
    /// `codec` stream (with its `sound`, where its movie has it); one `LiveStreamServer` per
    /// camera, in order, each with its own `url`.
    public static func startCameras(_ settings: ServeSettings,
                                    streams: [(codec: VideoCodec, sound: AudioCodec?)]) throws(CamrecError) -> [LiveStreamServer] {
        try start(settings, mounts: streams.enumerated().map { (ServeSettings.cameraPath($0.offset + 1), $0.element.codec, $0.element.sound) })
    }

    private static func start(_ settings: ServeSettings,
                              mounts: [(path: String, codec: VideoCodec, sound: AudioCodec?)]) throws(CamrecError) -> [LiveStreamServer] {
        var launches: [String] = []
        for mount in mounts {
            guard let media = media(for: mount.codec, sound: mount.sound) else {
                throw CamrecError(.usage, "--serve streams H.264 only (yet), not \(mount.codec.rawValue): record with --codec h264 (the default) to serve it")
            }
            launches.append(media)
        }
        if let reason = libraryProblem {
            throw CamrecError(.unavailable, "--serve needs GStreamer's RTSP server library, which could not be loaded (\(reason)): install it with apt install \(Self.package)")
        }
        var failure: UnsafeMutablePointer<CChar>?
        let paths = mounts.map { strdup($0.path) }
        let media = launches.map { strdup($0) }
        defer { for text in paths + media { free(text) } }
        let pointer = paths.map { $0.map { UnsafePointer($0) } }.withUnsafeBufferPointer { pathList in
            media.map { $0.map { UnsafePointer($0) } }.withUnsafeBufferPointer { mediaList in
                camrec_rtsp_server_new(settings.address, Int32(settings.port), Int32(mounts.count), pathList.baseAddress,
                                       mediaList.baseAddress, settings.credentials?.user, settings.credentials?.password, &failure)
            }
        }
        guard let pointer else {
            let reason = failure.map { String(cString: $0) } ?? "it could not listen"
            g_free(failure)
            throw CamrecError(.unavailable, "--serve \(settings.address):\(settings.port): \(reason): choose another port or address")
        }
        let shared = Shared(pointer)
        let port = Int(camrec_rtsp_server_port(pointer))
        return mounts.enumerated().map { index, mount in
            LiveStreamServer(shared, mount: Int32(index), urls: settings.urls(port: port, path: mount.path))
        }
    }

    private init(_ shared: Shared, mount: Int32, urls: [String]) {
        self.shared = shared
        self.mount = mount
        self.urls = urls
        url = urls.first ?? ""
    }

    /// The media's streams.
    enum Stream: Int32 {
        case picture = 0, sound = 1
    }

    /// Serves the encoded frames `sink` gets (on its streaming thread, never blocking it).
    /// The token stops it.
    public func serve(framesOf sink: AppSink) -> AppSinkCallbacksToken {
        serve(sink, as: .picture)
    }

    /// Serves the encoded sound `sink` gets, as `serve(framesOf:)` does the picture.
    public func serve(soundOf sink: AppSink) -> AppSinkCallbacksToken {
        serve(sink, as: .sound)
    }

    private func serve(_ sink: AppSink, as stream: Stream) -> AppSinkCallbacksToken {
        sink.setCallbacks(newSample: { [self] view in
            if let sample = view.pullSample() { push(sample, to: stream) }
            return .ok
        })
    }

    /// Hands one encoded buffer to the media being served (dropped when no one watches).
    func push(_ sample: Sample, to stream: Stream) {
        shared.server.withLock { handle in
            guard let handle else { return }
            _ = camrec_rtsp_server_push(handle.pointer, mount, stream.rawValue, sample.samplePointer)
        }
    }

    /// How many clients are connected now (to any camera's mount).
    public var clients: Int {
        shared.server.withLock { handle in handle.map { Int(camrec_rtsp_server_clients($0.pointer)) } ?? 0 }
    }

    /// Disconnects every client and stops listening (every camera's mount); safe to call
    /// more than once. The server is also closed when the last camera's goes.
    public func close() {
        shared.close()
    }
}

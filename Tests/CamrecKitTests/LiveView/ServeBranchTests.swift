@testable import CamrecKit
import Testing

/// The RTSP server's tap of the recording's encoded stream (`--serve`), and its settings.
@Suite struct ServeBranchTests {
    static let size = FrameSize(width: 640, height: 480)
    static let rate = FrameRateValue(numerator: 30, denominator: 1)

    func config(_ source: VideoSource = .testPattern, copy: Bool = false) -> RecordConfig {
        var config = RecordConfig(source: source, size: Self.size, rate: Self.rate, maxDuration: .seconds(3), outputPath: "out.mp4",
                                  container: .mp4, overwrite: false, encoder: EncoderSettings())
        if copy { config.encoder = EncoderSettings(factory: nil) }
        config.serve = ServeSettings(port: 0)
        return config
    }

    static let tap = "tee name=served served. ! queue name=servequeue leaky=downstream max-size-buffers=0 max-size-bytes=0"
        + " max-size-time=2000000000 ! appsink name=serve sync=false async=false wait-on-eos=false enable-last-sample=false served."

    @Test func theEncoderOutputIsTappedBeforeTheMovieParser() throws {
        let line = try RecordPipeline(config: config()).description(location: "x.mp4")
        #expect(line.contains("name=encoder ! " + Self.tap + " ! h264parse ! mp4mux"), "\(line)")
    }

    @Test func aCopiedStreamIsTappedAtTheRecordingBranch() throws {
        let h264 = CameraFormat(fourcc: "H264", caps: "video/x-h264,width=640,height=480,framerate=30/1", size: Self.size,
                                rate: Self.rate, decoding: .h264, reason: "")
        let line = try RecordPipeline(config: config(.camera(path: "/dev/video0", format: h264), copy: true)).description(location: "x.mp4")
        #expect(line.contains("max-size-time=2000000000 ! " + Self.tap + " ! h264parse ! mp4mux"), "\(line)")
    }

    @Test func thePrintedLineLeavesTheServerOut() throws {
        #expect(!(try RecordPipeline(config: config()).commandLine()).contains("serve"))
    }

    @Test func clipsAndServerShareTheEncoderOutput() throws {
        var both = config()
        both.clips = ClipSettings(preRoll: .seconds(1), postRoll: .seconds(1), maxClip: .seconds(5))
        let line = try RecordPipeline(config: both).description(location: "x.mp4")
        #expect(line.contains("appsink name=clipfeed") && line.contains("encoded. ! " + Self.tap + " ! h264parse ! mp4mux"), "\(line)")
    }

    @Test func loopbackAndURLs() {
        #expect(ServeSettings.isLoopback("127.0.0.1") && ServeSettings.isLoopback("127.1.2.3") && ServeSettings.isLoopback("::1"))
        #expect(ServeSettings.isLoopback("localhost"))
        #expect(!ServeSettings.isLoopback("0.0.0.0") && !ServeSettings.isLoopback("192.168.1.20") && !ServeSettings.isLoopback("::"))
        #expect(ServeSettings(port: 8554).url(port: 8554) == "rtsp://127.0.0.1:8554/live")
        // A wildcard address is no URL a client can use: one of the machine's (ServeURLTests).
        #expect(ServeSettings(address: "::", port: 0).url(port: 40000).hasSuffix(":40000/live"))
        #expect(!ServeSettings(address: "::", port: 0).url(port: 40000).contains("[::]"))
    }

    @Test func theSoundEncoderOutputIsTappedBeforeTheMuxer() throws {
        var sound = config()
        sound.audio = AudioSettings(input: AudioInput(element: .test, reason: "test"), container: .mp4)
        let line = try RecordPipeline(config: sound).description(location: "x.mp4")
        #expect(line.contains("name=audioencoder bitrate=") && line.contains(" ! tee name=servedaudio ! queue name=servesoundqueue leaky=downstream"),
                "\(line)")
        #expect(line.contains("appsink name=servesound sync=false async=false wait-on-eos=false enable-last-sample=false servedaudio. ! mux.audio_0"),
                "\(line)")
        let media = LiveStreamServer.media(for: .h264, sound: .aac) ?? ""
        #expect(media.contains("appsrc name=sound") && media.contains("rtpmp4gpay name=pay1"), "\(media)")
        #expect(LiveStreamServer.media(for: .h264, sound: .opus)?.contains("rtpopuspay name=pay1") == true)
    }

    @Test func onlyH264IsServed() {
        #expect(LiveStreamServer.media(for: .h264)?.contains("rtph264pay name=pay0") == true)
        #expect(LiveStreamServer.media(for: .h265) == nil)
        #expect(LiveStreamServer.media(for: .mjpeg) == nil)
    }
}

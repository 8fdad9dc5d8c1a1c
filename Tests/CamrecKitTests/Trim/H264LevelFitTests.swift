@testable import CamrecKit
@testable import Trim
import GStreamer
import Testing

/// The level a whole re-encode declares (issue 30 item 7): the lowest that holds the output.
@Suite("H.264 level from size and frame rate")
struct H264LevelFitTests {
    @Test func commonSizes() {
        #expect(H264LevelFit.level(width: 320, height: 240, framesPerSecond: 30) == 13)
        #expect(H264LevelFit.level(width: 640, height: 480, framesPerSecond: 30) == 30)
        #expect(H264LevelFit.level(width: 1280, height: 720, framesPerSecond: 30) == 31)
        #expect(H264LevelFit.level(width: 1920, height: 1080, framesPerSecond: 30) == 40)
        #expect(H264LevelFit.level(width: 1920, height: 1080, framesPerSecond: 60) == 42)
        #expect(H264LevelFit.level(width: 3840, height: 2160, framesPerSecond: 30) == 51)
        #expect(H264LevelFit.level(width: 3840, height: 2160, framesPerSecond: 60) == 52)
        #expect(H264LevelFit.level(width: 176, height: 144, framesPerSecond: 15) == 10)
    }

    @Test func aNarrowPictureNeedsTheLevelItsLongSideFits() {
        // 1 × 99 macroblocks fits level 1's frame size but not its sides (sqrt(8 × 99) = 28).
        #expect(H264LevelFit.level(width: 16, height: 99 * 16, framesPerSecond: 1) == 22)
    }

    @Test func unknownOrImpossibleSizesHaveNone() {
        #expect(H264LevelFit.level(width: 0, height: 240, framesPerSecond: 30) == nil)
        #expect(H264LevelFit.level(width: 320, height: 240, framesPerSecond: 0) == nil)
        #expect(H264LevelFit.level(width: 16384, height: 16384, framesPerSecond: 30) == nil)
        #expect(H264LevelFit.name(13) == "1.3" && H264LevelFit.name(40) == "4")
    }

    @Test func wholeEncodingDeclaresTheLevelAndKeepsToItsRate() throws {
        let caps = try Caps("video/x-raw,width=(int)320,height=(int)240,framerate=(fraction)30/1")
        let encoding = VideoEncoding.whole(from: .mjpeg, caps: caps, codecData: nil)
        #expect(encoding.x264Options == ["level=1.3"])
        #expect(encoding.encoder.contains("bitrate=960 vbv-buf-capacity=2604"))
        // Without a rate in the caps, the index's average is used.
        let noRate = try Caps("video/x-raw,width=(int)1280,height=(int)720")
        #expect(VideoEncoding.whole(from: .mjpeg, caps: noRate, codecData: nil, framesPerSecond: 30).x264Options == ["level=3.1"])
    }
}

import GStreamer
import Testing

/// Cutting raw audio at a sample (`BufferView.audioFrames`), as the sound gate does at a
/// movie's start and end.
struct AudioFramesTests {
    @Test func theFormatComesFromRawAudioCaps() throws {
        try Runtime.initialize()
        let stereo = try Caps("audio/x-raw,format=S16LE,layout=interleaved,rate=48000,channels=2,channel-mask=(bitmask)0x3")
        #expect(AudioFormat(caps: stereo) == AudioFormat(rate: 48000, bytesPerFrame: 4))
        // AAC's encoder takes planar floats: a frame is still a sample of each channel
        let planar = try Caps("audio/x-raw,format=F32LE,layout=non-interleaved,rate=44100,channels=1")
        #expect(AudioFormat(caps: planar) == AudioFormat(rate: 44100, bytesPerFrame: 4))
        #expect(AudioFormat(caps: try Caps("video/x-raw,format=I420,width=8,height=8,framerate=30/1")) == nil)
        #expect(AudioFormat(caps: try Caps("audio/x-raw,rate=48000")) == nil)   // not fixed
    }

    @Test func aCutKeepsTheFramesAskedForWithTheirTimes() throws {
        try Runtime.initialize()
        // 10 stereo frames of 16 bits: frame i holds bytes (4i, 4i+1, 4i+2, 4i+3)
        let format = AudioFormat(rate: 1000, bytesPerFrame: 4)
        let original = try #require(Buffer(bytes: (0..<40).map { UInt8($0) })?
            .edited { $0.pts = 5_000_000_000; $0.duration = 10_000_000 })
        let cut = try #require(original.view.audioFrames(skip: 3, keep: 4, format: format))
        #expect(cut.bytes == Array(12..<28).map { UInt8($0) })
        #expect(cut.pts == 5_003_000_000)
        #expect(cut.duration == 4_000_000)
        #expect(original.size == 40 && original.pts == 5_000_000_000)   // the original is untouched
        // asked past the end: what is there
        let tail = try #require(original.view.audioFrames(skip: 8, keep: 5, format: format))
        #expect(tail.bytes == Array(32..<40).map { UInt8($0) } && tail.duration == 2_000_000)
        #expect(original.view.audioFrames(skip: 10, keep: 1, format: format) == nil)
        #expect(original.view.audioFrames(skip: 0, keep: 0, format: format) == nil)
    }
}

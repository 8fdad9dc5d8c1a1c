import Foundation
import Testing

/// The measurement itself (Support/AVSync.swift), on movies whose offset is known: ffmpeg's
/// lavfi makes a picture with a white frame at every whole second and clicks like the click
/// player's (a 1 kHz cosine burst, 10 ms) a known time after it, encoded as camrec will:
/// H.264 with AAC in MP4 (ffmpeg's muxer, with its edit list for the AAC priming) and Opus
/// in MKV (GStreamer's opusenc and matroskamux, as camrec will write it). Another pair delays
/// the sound track's start (an empty edit in MP4, a later first timestamp in MKV), which the
/// measurement must honour.
///
/// Not used here: ffmpeg 5.1's own MKV/Opus muxing, which puts its sound 6.5 ms (the Opus
/// pre-skip, 312 samples) early as ffmpeg's demuxer reads it back (33.5 ms for 40).
@Suite("AVSync: flashes and clicks found in MP4 (AAC) and MKV (Opus)")
struct AVSyncTests {
    static func makeMovie(_ path: String, container: String, clickAfter: Double, audioStartsAt: Double = 0) throws {
        // frame n is white when it is the first of its second (t = 0, 1, 2 …)
        let video = "testsrc2=s=320x240:r=30:d=4,drawbox=c=white:t=fill:enable='lt(mod(n,30),1)'"
        let audio = "aevalsrc='if(between(mod(t-\(clickAfter),1),0,0.01),0.8*cos(2*PI*1000*mod(t-\(clickAfter),1)),0)':s=48000:d=4"
        let source = container == "mp4" ? path : path + ".pcm.mkv"
        var arguments = ["-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", video]
        if audioStartsAt != 0 { arguments += ["-itsoffset", "\(audioStartsAt)"] }
        arguments += ["-f", "lavfi", "-i", audio, "-map", "0:v", "-map", "1:a",
                      "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p"]
            + (container == "mp4" ? ["-c:a", "aac", "-b:a", "128k"] : ["-c:a", "pcm_s16le"]) + [source]
        let run = try ChildProcess.run("ffmpeg", arguments, timeout: 60)
        try #require(run.status == 0, "ffmpeg: \(run.stderr)")
        guard container == "mkv" else { return }
        let remux = try ChildProcess.run("gst-launch-1.0", [
            "-q", "filesrc", "location=\(source)", "!", "matroskademux", "name=d",
            "d.audio_0", "!", "queue", "!", "audioconvert", "!", "opusenc", "bitrate=96000", "!", "matroskamux", "name=m",
            "!", "filesink", "location=\(path)", "d.video_0", "!", "queue", "!", "m.",
        ], timeout: 60)
        try #require(remux.status == 0, "gst-launch: \(remux.stderr)")
    }

    @Test("clicks 40 ms after the flashes: +40 ms at every flash, within 1.5 ms",
          arguments: ["mp4", "mkv"])
    func knownOffset(_ container: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let movie = folder.path("sync.\(container)")
        try Self.makeMovie(movie, container: container, clickAfter: 0.040)
        let sync = try AVSync.measure(movie)
        #expect(sync.flashes.count == 4, "\(sync)")
        #expect(sync.offsets.count == 4, "\(sync)")
        for offset in sync.offsets { #expect(abs(offset - 0.040) < 0.0015, "\(sync)") }
        #expect(sync.first.map { abs($0 - 0.040) < 0.0015 } == true)
        #expect(sync.last.map { abs($0 - 0.040) < 0.0015 } == true)
    }

    @Test("a sound track that starts 0.25 s into the movie (MP4 edit list, MKV timestamps): the clicks move with it",
          arguments: ["mp4", "mkv"])
    func delayedTrack(_ container: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let movie = folder.path("late.\(container)")
        try Self.makeMovie(movie, container: container, clickAfter: 0.1, audioStartsAt: 0.25)
        let sync = try AVSync.measure(movie)
        // clicks at 0.35, 1.35, 2.35, 3.35 (the last one past the picture's end may be cut)
        #expect(sync.offsets.count >= 3, "\(sync)")
        for offset in sync.offsets { #expect(abs(offset - 0.350) < 0.0015, "\(sync)") }
    }
}

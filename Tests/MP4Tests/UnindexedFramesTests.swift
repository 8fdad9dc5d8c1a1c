import Foundation
@testable import MP4
import Testing

/// H.264 frames that no box indexes (issue 29 item 4): the SPS gives size and rate, the
/// walk over length-prefixed NAL units finds where frames start, and a file holding only
/// `ftyp` and such an `mdat` reads as one video track.
@Suite("MP4 unindexed H.264 frames")
struct UnindexedFramesTests {
    /// x264's SPS for 320x240 at 30 fps, 4:4:4 (High 4:4:4 Predictive), as gst-launch recorded it.
    static let sps: [UInt8] = [0x67, 0xF4, 0x00, 0x0D, 0x90, 0xD9, 0x68, 0x14, 0x1F, 0xB0, 0x16, 0xA0, 0xC0, 0xC0,
                               0xC8, 0x00, 0x00, 0x03, 0x00, 0x08, 0x00, 0x00, 0x03, 0x01, 0xE4, 0x78, 0xA1, 0x55]
    static let pps: [UInt8] = [0x68, 0xCE, 0x31, 0x92]

    @Test func theSequenceParameterSetGivesSizeAndRate() throws {
        let parameters = try #require(AVCSequenceParameters(nal: Self.sps))
        #expect(parameters.profile == 244)
        #expect(parameters.chromaFormat == 3)
        #expect(parameters.width == 320 && parameters.height == 240)
        #expect(parameters.frameRate?.numerator == 60 && parameters.frameRate?.denominator == 2)
        #expect(AVCSequenceParameters(nal: Self.pps) == nil, "not an SPS")
        #expect(AVCSequenceParameters(nal: Array(Self.sps.prefix(6))) == nil, "cut short")
    }

    /// Length-prefixed NAL units.
    static func units(_ nals: [[UInt8]]) -> [UInt8] {
        var bytes: [UInt8] = []
        for nal in nals {
            let count = UInt32(nal.count)
            bytes += [UInt8(count >> 24), UInt8(count >> 16 & 0xFF), UInt8(count >> 8 & 0xFF), UInt8(count & 0xFF)]
            bytes += nal
        }
        return bytes
    }

    /// AUD, SPS, PPS and an IDR in two slices; then two P frames (one slice each, the second
    /// without AUD); the first_mb_in_slice bit tells a frame's first slice.
    static let frames: [[[UInt8]]] = [
        [[0x09, 0x10], sps, pps, [0x65, 0x88, 1, 2, 3], [0x65, 0x48, 4, 5]],
        [[0x09, 0x30], [0x41, 0x9A, 6, 7, 8]],
        [[0x41, 0x9A, 9, 10]],
    ]

    func file(_ bytes: [UInt8]) throws -> (SampleFile, String) {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("unindexed-\(UUID().uuidString).mp4").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return (try SampleFile(path: path), path)
    }

    @Test func theWalkFindsEachFrameAndStopsAtATornOne() throws {
        let data = Self.units(Self.frames.flatMap { $0 })
        let (whole, wholePath) = try file(data)
        defer { try? FileManager.default.removeItem(atPath: wholePath) }
        let walked = AVCAccessUnits.walk(whole, from: 0, to: UInt64(data.count))
        let sizes = Self.frames.map { Self.units($0).count }
        #expect(walked.units.map(\.size) == sizes.map(UInt32.init))
        #expect(walked.units.map(\.offset) == [0, UInt64(sizes[0]), UInt64(sizes[0] + sizes[1])])
        #expect(walked.units.map(\.isSync) == [true, false, false])
        #expect(walked.sequenceParameterSet == Self.sps && walked.pictureParameterSet == Self.pps)
        #expect(walked.end == UInt64(data.count))
        // Cut inside the last frame: that frame is left out.
        let (torn, tornPath) = try file(Array(data.dropLast(2)))
        defer { try? FileManager.default.removeItem(atPath: tornPath) }
        let cut = AVCAccessUnits.walk(torn, from: 0, to: UInt64(data.count - 2))
        #expect(cut.units.count == 2)
        #expect(cut.end == UInt64(sizes[0] + sizes[1]))
    }

    @Test func aFileWithoutMovieBoxReadsAsOneVideoTrack() throws {
        var bytes: [UInt8] = [0, 0, 0, 16] + Array("ftypisom".utf8) + [0, 0, 2, 0]
        bytes += [0, 0, 0, 8] + Array("free".utf8)
        let data = Self.units(Self.frames.flatMap { $0 })
        bytes += [0, 0, 0, 0] + Array("mdat".utf8) + data   // size 0: to the end, as mp4mux leaves it
        let (_, path) = try file(bytes)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let movie = try CompleteFragments.read(path: path)
        #expect(movie.unindexedFrames == 3)
        #expect(!movie.assumedFrameRate)
        let track = try #require(movie.tracks.first)
        #expect(movie.tracks.count == 1 && track.template.handler == "vide" && track.template.format == "avc1")
        #expect(track.samples.map(\.duration) == [3000, 3000, 3000], "90 kHz at 30 fps")
        #expect(track.samples.map(\.isSync) == [true, false, false])
        #expect(SampleEntry.child("avcC", of: track.sampleEntry)?.count ?? 0 > Self.sps.count + Self.pps.count)
    }
}

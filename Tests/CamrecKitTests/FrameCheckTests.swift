@testable import CamrecKit
import Foundation
import Testing

/// The structural JPEG check that keeps cut-short camera frames out of movies and stills,
/// against JPEGs made by ffmpeg (4:2:0 and 4:2:2 like a webcam's, optimal and default tables).
@Suite struct FrameCheckTests {
    static func jpeg(_ extra: [String] = []) throws -> [UInt8] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("framecheck-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("f.jpg").path
        let made = try ProcessRunner.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc=s=320x240", "-frames:v", "1"]
                                         + extra + [path])
        try #require(made.status == 0, "\(made.stderr)")
        return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    static func check(_ bytes: [UInt8]) -> FrameCheck {
        bytes.withUnsafeBytes { FrameCheck.check($0, kind: .jpeg) }
    }

    @Test(arguments: [[String](), ["-huffman", "default"], ["-pix_fmt", "yuvj422p"]])
    func completeJPEGIsGood(options: [String]) throws {
        let frame = try Self.jpeg(options)
        #expect(Self.check(frame) == .good)
        // Padding after the EOI, as some cameras add, is fine.
        #expect(Self.check(frame + [UInt8](repeating: 0, count: 4096)) == .good)
    }

    @Test(arguments: [0.1, 0.5, 0.9, 0.999])
    func cutShortIsCorrupt(fraction: Double) throws {
        let frame = try Self.jpeg()
        let cut = Array(frame.prefix(Int(Double(frame.count) * fraction)))
        #expect(Self.check(cut) == .corrupt)
    }

    /// A frame cut short with garbage after it, as cheap UVC cameras deliver: the bytes
    /// up to the frame's full size are noise (fixed seeds: the same bytes every run).
    @Test(arguments: 1...20)
    func cutShortWithGarbageIsCorrupt(seed: UInt64) throws {
        let frame = try Self.jpeg()
        var state = seed &* 0x9E37_79B9_7F4A_7C15
        let garbage = (0..<(frame.count / 2)).map { _ -> UInt8 in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 33)
        }
        #expect(Self.check(Array(frame.prefix(frame.count / 2)) + garbage) == .corrupt)
    }

    @Test func emptyAndNonJPEG() {
        #expect([UInt8]().withUnsafeBytes { FrameCheck.check($0, kind: .jpeg) } == .empty)
        #expect([UInt8]().withUnsafeBytes { FrameCheck.check($0, kind: .raw) } == .empty)
        #expect(Self.check([0x00, 0x01, 0x02, 0x03, 0x04]) == .corrupt)
        #expect(Self.check([0xFF, 0xD8, 0xFF, 0xD9]) == .corrupt)   // no picture at all
        #expect([UInt8](repeating: 7, count: 10).withUnsafeBytes { FrameCheck.check($0, kind: .raw) } == .good)
    }
}

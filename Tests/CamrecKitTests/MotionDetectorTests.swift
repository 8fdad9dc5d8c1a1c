@testable import CamrecKit
import Testing

/// The motion trigger on synthetic 64×48 grey scenes: sensor noise, light that ramps or
/// jumps, small things, masked regions, and an object that enters (which must make exactly
/// one detection each time).
@Suite("Motion detector: one detection per object that enters")
struct MotionDetectorTests {
    static let width = 64, height = 48

    /// A scene: a grey `level`, noise of ±`noise` (deterministic for `seed`), and a square
    /// of `size` pixels at (`x`, `y`) `contrast` levels brighter.
    static func frame(level: Double, noise: Int = 6, seed: Int, object: (x: Int, y: Int, size: Int)? = nil,
                      contrast: Double = 80) -> [UInt8] {
        var state = UInt32(truncatingIfNeeded: seed &* 2_654_435_761 &+ 12345)
        var pixels = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                state = state &* 1_664_525 &+ 1_013_904_223
                let jitter = noise > 0 ? Int(state >> 16) % (2 * noise + 1) - noise : 0
                var value = level + Double(jitter)
                if let object, (object.x..<(object.x + object.size)).contains(x),
                   (object.y..<(object.y + object.size)).contains(y) {
                    value += contrast
                }
                pixels[y * width + x] = UInt8(max(0, min(255, value.rounded())))
            }
        }
        return pixels
    }

    /// Feeds `frames` frames from `scene(index)`; the frames of the detections.
    static func detections(_ detector: inout MotionDetector, frames: Int, scene: (Int) -> [UInt8]) -> [Int] {
        (0..<frames).compactMap { detector.feed(scene($0))?.frame }
    }

    @Test("sensor noise alone never triggers")
    func noise() {
        var detector = MotionDetector(width: Self.width, height: Self.height)
        let found = Self.detections(&detector, frames: 300) { Self.frame(level: 100, noise: 8, seed: $0) }
        #expect(found.isEmpty, "\(found)")
    }

    @Test("light that ramps slowly, or jumps all at once (exposure), does not trigger")
    func light() {
        var ramp = MotionDetector(width: Self.width, height: Self.height)
        // From 40 to 200 over 400 frames (a cloud, dawn at a few frames a second).
        let ramped = Self.detections(&ramp, frames: 400) { Self.frame(level: 40 + 0.4 * Double($0), seed: $0) }
        #expect(ramped.isEmpty, "\(ramped)")
        var jump = MotionDetector(width: Self.width, height: Self.height)
        let jumped = Self.detections(&jump, frames: 100) { Self.frame(level: $0 < 50 ? 80 : 130, seed: $0) }
        #expect(jumped.isEmpty, "\(jumped)")
    }

    @Test("an object that enters twice makes exactly two detections, at its second frame each time")
    func objectEnters() {
        var detector = MotionDetector(width: Self.width, height: Self.height)
        let found = Self.detections(&detector, frames: 220) { index in
            let present = (50..<80).contains(index) || (150..<170).contains(index)
            // It moves while it is there.
            return Self.frame(level: 100, seed: index, object: present ? (x: 10 + index % 20, y: 12, size: 12) : nil)
        }
        #expect(found == [51, 151], "\(found)")
    }

    @Test("things smaller than the minimum area, or in a masked region, do not trigger")
    func smallOrMasked() {
        var small = MotionDetector(width: Self.width, height: Self.height)
        let tiny = Self.detections(&small, frames: 100) { index in
            Self.frame(level: 100, seed: index, object: index >= 40 ? (x: 30, y: 30, size: 4) : nil)
        }
        #expect(tiny.isEmpty, "4×4 of 64×48 (0.5 %): \(tiny)")
        // The left half masked; the object enters there.
        let mask = (0..<(Self.width * Self.height)).map { $0 % Self.width >= Self.width / 2 }
        var masked = MotionDetector(width: Self.width, height: Self.height, mask: mask)
        let hidden = Self.detections(&masked, frames: 100) { index in
            Self.frame(level: 100, seed: index, object: index >= 40 ? (x: 4, y: 10, size: 20) : nil)
        }
        #expect(hidden.isEmpty, "\(hidden)")
        // The same object on the unmasked side is found.
        var open = MotionDetector(width: Self.width, height: Self.height, mask: mask)
        let seen = Self.detections(&open, frames: 100) { index in
            Self.frame(level: 100, seed: index, object: index >= 40 ? (x: 40, y: 10, size: 20) : nil)
        }
        #expect(seen == [41], "\(seen)")
    }

    @Test("sensitivity: higher finds smaller and fainter changes", arguments: [0.0, 0.5, 1.0])
    func sensitivity(value: Double) {
        let tuning = MotionDetector.Tuning.sensitivity(value)
        var detector = MotionDetector(width: Self.width, height: Self.height, tuning: tuning)
        // 6×6 (1.2 % of the picture), 30 levels brighter.
        let found = Self.detections(&detector, frames: 100) { index in
            Self.frame(level: 100, noise: 3, seed: index, object: index >= 40 ? (x: 20, y: 20, size: 6) : nil,
                       contrast: 30)
        }
        #expect(found == (value < 0.5 ? [] : [41]), "sensitivity \(value): \(found)")
        let middle = MotionDetector.Tuning.sensitivity(0.5), standard = MotionDetector.Tuning()
        #expect(abs(middle.minimumArea - standard.minimumArea) < 1e-9 && middle.deviations == standard.deviations
                    && middle.floor == standard.floor)
    }
}

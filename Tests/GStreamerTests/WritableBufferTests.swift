import GStreamer
import Testing

/// GStreamer could not allocate a test's buffer (`#require` takes no noncopyable value).
struct OutOfMemory: Error {}

/// A `Buffer` never changes, so it may be shared between threads; its times, flags and
/// bytes are set on a `WritableBuffer`, which hands back a new `Buffer`, the memory shared
/// until bytes are written.
@Suite struct WritableBufferTests {
    private func stamped(_ bytes: [UInt8], pts: UInt64, keyframe: Bool = true) throws -> Buffer {
        guard var made = WritableBuffer(bytes: bytes) else { throw OutOfMemory() }
        made.pts = pts
        made.dts = pts - 1
        made.duration = 40
        made.isKeyframe = keyframe
        return made.finished()
    }

    @Test func aNewBufferGetsItsTimesAndFlagsBeforeItIsFinished() throws {
        let buffer = try stamped([1, 2, 3], pts: 100, keyframe: false)
        #expect(buffer.pts == 100 && buffer.dts == 99 && buffer.duration == 40)
        #expect(buffer.isKeyframe == false)
        #expect(buffer.bytes == [1, 2, 3])
        #expect(buffer.referenceCount == 1, "finished() hands its one reference over")
    }

    @Test func anEditIsANewBufferSharingTheMemoryAndTheOriginalStaysAsItWas() throws {
        let original = try stamped([1, 2, 3, 4], pts: 100)
        let moved = try #require(original.edited { $0.pts = 500; $0.dts = nil; $0.isKeyframe = false })
        #expect(moved.pts == 500 && moved.dts == nil && moved.duration == 40 && moved.isKeyframe == false)
        #expect(original.pts == 100 && original.dts == 99 && original.isKeyframe)
        // Only the metadata was copied: both map the same bytes.
        let originalBytes = original.withBytes { $0.baseAddress }
        let movedBytes = moved.withBytes { $0.baseAddress }
        #expect(originalBytes != nil && originalBytes == movedBytes)
    }

    @Test func writingTheBytesOfAnEditCopiesThemFirst() throws {
        let original = try stamped([1, 2, 3], pts: 100)
        let changed = try #require(original.edited { buffer in _ = buffer.withMutableBytes { $0[0] = 0xFF } })
        #expect(changed.bytes == [0xFF, 2, 3])
        #expect(original.bytes == [1, 2, 3])
        #expect(changed.pts == 100)
    }

    @Test func newBytesKeepTheTimesAndTheKeyframeFlag() throws {
        let original = try stamped([1, 2, 3], pts: 100, keyframe: false)
        let replaced = try #require(original.replacingBytes([9, 8]))
        #expect(replaced.bytes == [9, 8])
        #expect(replaced.timing == BufferTiming(pts: 100, dts: 99, duration: 40, isKeyframe: false, size: 2))
        #expect(original.bytes == [1, 2, 3])
    }

    @Test func aBufferCrossesTasksAsItIs() async throws {
        // Sendable by construction: nothing can change it, wherever it goes.
        let buffer = try stamped([7, 8], pts: 100)
        let seen = await Task.detached { (buffer.pts, buffer.bytes) }.value
        #expect(seen.0 == 100 && seen.1 == [7, 8])
    }
}

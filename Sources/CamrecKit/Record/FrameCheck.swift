#if canImport(Glibc)
import Glibc
#endif

/// Whether a camera frame is worth recording. Cheap UVC cameras deliver empty frames
/// (`bytesused` 0) and MJPEG frames cut short (the end of the picture missing, often with
/// garbage after it); recorded, those show as half-grey pictures and give empty or corrupt
/// stills.
enum FrameCheck: Equatable {
    /// A frame to record.
    case good
    /// No bytes at all.
    case empty
    /// Bytes that do not make a complete picture.
    case corrupt

    /// Checks one frame of `kind`. Raw frames are checked only for emptiness (their size
    /// is fixed by the format; v4l2src drops short ones); MJPEG frames must be a complete
    /// JPEG: SOI, marker segments, scan data and an EOI, in order.
    static func check(_ bytes: UnsafeRawBufferPointer, kind: Kind) -> FrameCheck {
        guard !bytes.isEmpty else { return .empty }
        switch kind {
        case .raw, .h264: return .good
        case .jpeg: return isCompleteJPEG(bytes) ? .good : .corrupt
        }
    }

    /// What a camera delivers.
    enum Kind: Sendable {
        case raw, jpeg, h264
    }

    /// Walks the JPEG's structure to its EOI marker without decoding: a frame cut short
    /// has no EOI, or garbage where the next marker segment should be. Bytes after the
    /// EOI (padding some cameras add) are allowed.
    static func isCompleteJPEG(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let count = bytes.count
        guard count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return false }
        var index = 2
        var sawScan = false
        while index + 1 < count {
            guard bytes[index] == 0xFF else { return false }
            let marker = bytes[index + 1]
            switch marker {
            case 0xFF:
                index += 1                       // fill byte before a marker
                continue
            case 0xD9:
                return sawScan                   // EOI: complete when a picture came before it
            case 0x01, 0xD0...0xD7:
                index += 2                       // markers without a length
                continue
            default:
                break
            }
            guard index + 3 < count else { return false }
            let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
            guard length >= 2, index + 2 + length <= count else { return false }
            index += 2 + length
            guard marker == 0xDA else { continue }
            // Entropy-coded data runs to the next 0xFF that is not a stuffed 0xFF00 or a
            // restart marker.
            sawScan = true
            guard let next = nextMarker(in: bytes, from: index) else { return false }
            index = next
        }
        return false
    }

    /// The offset of the next marker in scan data at or after `start`, or nil when the
    /// data ends first.
    private static func nextMarker(in bytes: UnsafeRawBufferPointer, from start: Int) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        var index = start
        while index < bytes.count {
            guard let found = memchr(base + index, 0xFF, bytes.count - index) else { return nil }
            let offset = base.distance(to: UnsafeRawPointer(found))
            guard offset + 1 < bytes.count else { return nil }
            let following = bytes[offset + 1]
            if following == 0x00 || (0xD0...0xD7).contains(following) || following == 0xFF {
                index = offset + (following == 0xFF ? 1 : 2)
                continue
            }
            return offset
        }
        return nil
    }
}

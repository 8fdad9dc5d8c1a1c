import GStreamer
import Synchronization

/// Keeps frames that are not worth recording out of the pipeline, right after the camera:
/// empty frames and (MJPEG) frames cut short never reach the movie or a still.
///
/// A frame held back leaves a gap in the timestamps that `FrameGate` counts as a
/// dropped frame, like a frame the camera lost; corrupt frames are also counted here, for
/// the result's `corrupt_frames`. Runs in a pad probe: only a structural check of the
/// bytes (no decoding) and atomics.
final class FrameGuard: Sendable {
    private let kind: FrameCheck.Kind
    private let corrupt = Atomic<UInt64>(0)
    private let empty = Atomic<UInt64>(0)
    private let good = Atomic<UInt64>(0)

    init(kind: FrameCheck.Kind) {
        self.kind = kind
    }

    /// Installs a guard on the camera's source pad (the element named "src") of `pipeline`
    /// for `source`; nil for the test pattern, which needs none. The token removes it.
    static func install(for source: VideoSource, in pipeline: Pipeline,
                        onFirstCorrupt: @escaping @Sendable () -> Void) throws(GStreamerError) -> (FrameGuard, ProbeToken)? {
        guard case .camera(_, let format) = source else { return nil }
        let kind: FrameCheck.Kind = switch format.decoding {
        case .none: .raw
        case .jpeg: .jpeg
        case .h264: .h264
        }
        let frameGuard = FrameGuard(kind: kind)
        let pad = try pipeline.element(named: "src").staticPad("src")
        let token = pad.addProbe(.buffer) { info in
            guard let buffer = info.buffer else { return .pass }
            return frameGuard.admit(buffer, onFirstCorrupt: onFirstCorrupt)
        }
        return (frameGuard, token)
    }

    /// Decides for one camera frame; `onFirstCorrupt` is called once, for the first one.
    func admit(_ buffer: BufferView, onFirstCorrupt: () -> Void) -> ProbeDecision {
        let verdict: FrameCheck
        if buffer.size == 0 {
            verdict = .empty
        } else if kind == .jpeg {
            verdict = buffer.withBytes { FrameCheck.check($0, kind: kind) } ?? .corrupt
        } else {
            verdict = .good
        }
        switch verdict {
        case .good:
            good.wrappingAdd(1, ordering: .relaxed)
            return .pass
        case .empty:
            empty.wrappingAdd(1, ordering: .relaxed)
            return .drop   // counted by the gate too, as the gap it leaves
        case .corrupt:
            if corrupt.wrappingAdd(1, ordering: .relaxed).oldValue == 0 { onFirstCorrupt() }
            return .drop
        }
    }

    /// Corrupt frames held back so far.
    var corruptFrames: UInt64 { corrupt.load(ordering: .relaxed) }
    /// Empty frames held back so far.
    var emptyFrames: UInt64 { empty.load(ordering: .relaxed) }
    /// Frames let through so far.
    var goodFrames: UInt64 { good.load(ordering: .relaxed) }
}

extension FrameGuard {
    /// The camera sent nothing usable within the start timeout (`guarded`: what it did
    /// send, nil for a source without a guard): what it sent, and what to try.
    static func noUsableFrame(_ guarded: FrameGuard?) -> CamrecError {
        let seconds = RecordingMachine.startTimeout.components.seconds
        let corrupt = guarded?.corruptFrames ?? 0
        let empty = guarded?.emptyFrames ?? 0
        let what = corrupt + empty == 0 ? "no frame" : "only broken frames (\(corrupt) corrupt, \(empty) empty)"
        return CamrecError(.cameraLost, "the camera delivered \(what) within \(seconds) s, so nothing was recorded: "
                           + "check its cable and that no other program changes its settings, try another --format or --size, or unplug and replug it")
    }
}

import GStreamer
import Synchronization

/// Which camera frame each canvas frame is made of, as the compositor says when it
/// selects them ("samples-selected"), for the most recent canvas frames: a camera's still
/// in a composed run names the canvas frame (and so the movie frame) that shows it.
final class CanvasSelections: Sendable {
    /// One canvas frame: its timestamp and, per camera, the timestamp of the frame on it
    /// (nil: none, the camera had no frame yet or was lost).
    struct Selection: Equatable {
        var canvas: UInt64
        var cameras: [UInt64?]
    }

    /// Where a camera frame is on the canvas.
    enum Lookup: Equatable {
        /// On the canvas frame with this timestamp (the first that shows it).
        case canvas(UInt64)
        /// Not composed yet.
        case pending
        /// Never composed (dropped before the canvas) or too long ago to know.
        case absent
    }

    private let cameras: Int
    private let capacity: Int
    private let recent: Mutex<[Selection]>
    /// The compositor's input pad of each camera, in order (empty in unit tests).
    private let inputs: Mutex<[Pad]>

    /// For `cameras` cameras, remembering the last `capacity` canvas frames (10 s at 30
    /// fps); `pads` are the compositor's inputs of the cameras, in order.
    init(cameras: Int, capacity: Int = 300, pads: [Pad] = []) {
        self.cameras = cameras
        self.capacity = max(capacity, 1)
        recent = Mutex([])
        inputs = Mutex(pads)
    }

    /// The compositor's input pad of each camera, in order.
    var pads: [Pad] { inputs.withLock { $0 } }

    /// Camera `index`'s frames come through `pad` from now on (its branch was rebuilt).
    func replacePad(_ index: Int, with pad: Pad) {
        inputs.withLock { pads in
            if pads.indices.contains(index) { pads[index] = pad }
        }
    }

    /// The compositor selected `cameraFrames` (one per camera, in order) for the canvas
    /// frame at `canvas`.
    func record(canvas: UInt64, cameraFrames: [UInt64?]) {
        recent.withLock { recent in
            recent.append(Selection(canvas: canvas, cameras: cameraFrames))
            if recent.count > capacity { recent.removeFirst(recent.count - capacity) }
        }
    }

    /// The camera frame whose capture time canvas frame `canvas` carries: the first
    /// camera's frame on it (the next camera's when it had none); nil when that canvas
    /// frame is not known (too old) or shows no camera.
    func cameraFrame(onCanvas canvas: UInt64) -> UInt64? {
        recent.withLock { recent in
            recent.last { $0.canvas == canvas }?.cameras.lazy.compactMap { $0 }.first
        }
    }

    /// The canvas frame that first shows camera `camera`'s (0-based) frame at `pts`.
    func lookup(camera: Int, pts: UInt64) -> Lookup {
        guard camera >= 0, camera < cameras else { return .absent }
        return recent.withLock { recent in
            if let hit = recent.first(where: { $0.cameras.indices.contains(camera) && $0.cameras[camera] == pts }) {
                return .canvas(hit.canvas)
            }
            // A newer frame of that camera is already on the canvas: this one never will be.
            let newest = recent.last { $0.cameras.indices.contains(camera) && $0.cameras[camera] != nil }
            if let shown = newest?.cameras[camera] ?? nil, shown > pts { return .absent }
            return .pending
        }
    }
}

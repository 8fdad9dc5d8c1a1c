import CamrecCore
import GStreamer
import MediaValues
import Synchronization

/// Makes each frame's `--overlay` text: a buffer probe on the textoverlay's video input
/// sets the element's `text` for the frame about to enter it, on the same streaming
/// thread, so the text drawn on a frame is always that frame's (textoverlay reads its
/// `text` when the frame arrives). The capture time comes from the buffer's timestamp
/// (`CaptureTime`), never from when the probe runs.
package enum OverlayTextProbe {
    /// Installs the probe on the element named `PictureSettings.textElement`; nil when
    /// the text never changes (it was set in the pipeline description) or there is none.
    /// `decimator` is the recording's, when it keeps fewer frames than the camera gives:
    /// a second one, fed the same timestamps, keeps the same frames, so `{frame}` counts
    /// the movie's frames (a frame only the stills see shows the index of the last kept one).
    /// `rate` is the movie's: `{elapsed}` is the frame's time from the first frame, to the
    /// nearest frame (camera timestamps jitter by a fraction of one), as the movie shows it.
    package static func install(_ text: OverlayText?, in pipeline: Pipeline, device: String, rate: FrameRateValue,
                        decimator: RateDecimator? = nil) throws(GStreamerError) -> ProbeToken? {
        guard let text, text.varies else { return nil }
        let halfFrame = UInt64(0.5e9 / max(rate.framesPerSecond, 0.001))
        let element = try pipeline.element(named: PictureSettings.textElement)
        let pad = try element.staticPad("video_sink")
        let state = Mutex(Counter())
        return pad.addProbe(.buffer) { info in
            guard let pts = info.buffer?.pts else { return .pass }
            let (index, first) = state.withLock { counter -> (Int, UInt64) in
                let first = counter.firstPts ?? pts
                counter.firstPts = first
                if let decimator {
                    if decimator.keep(pts: pts) != nil { counter.kept += 1 }
                    return (max(counter.kept - 1, 0), first)
                }
                counter.kept += 1
                return (counter.kept - 1, first)
            }
            guard let clockNow = element.clockTime else { return .pass }
            let captured = CaptureTime.of(runningTime: pts, baseTime: element.baseTime, clockNow: clockNow,
                                          wallNow: WallTime.now())
            let line = text.render(OverlayText.Frame(captureTime: captured, index: index,
                                                     elapsed: pts >= first ? pts - first + halfFrame : 0, device: device))
            let changed = state.withLock { counter in
                guard counter.lastText != line else { return false }
                counter.lastText = line
                return true
            }
            // Setting the text makes textoverlay lay it out again: only when it changes.
            if changed { try? element.set("text", line) }
            return .pass
        }
    }

    private struct Counter {
        var firstPts: UInt64?
        var kept = 0
        var lastText: String?
    }
}

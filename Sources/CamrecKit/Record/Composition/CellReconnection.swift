import FoundationEssentials
import GStreamer
import V4L2

/// `--layout` with `--reconnect`: a camera lost mid-run is waited for, by its identity at
/// whatever /dev/videoN it comes back, and its branch is rebuilt into the running
/// pipeline, so that its cell shows it again while the movie goes on.
///
/// A thread per lost camera waits for it (``CameraWait``, as `Recorder` does for one camera)
/// and, when the camera is back or the wait is over, wakes the session's bus loop, which
/// calls `takeBack()`: the pipeline is changed there, on the one thread that runs it.
final class CellReconnection: Sendable {
    /// Posted on the bus when a lost camera is back, or its wait is over.
    static let wake = "camrec/cell-back"

    /// What became of a lost camera.
    enum Outcome {
        /// Back in its cell: its new source (whose errors are the camera's), its stills
        /// appsink and its compositor pad.
        case back(index: Int, device: String, gap: Double, source: Element, stillSink: AppSink, pad: Pad)
        /// Not back within the timeout, or it could not be put back: its cell stays black.
        case gone(index: Int, message: String)
    }

    private let composition: Composition
    private let pipeline: Pipeline
    private let identities: [DeviceIdentity?]
    private let timeout: TimeSpec?
    /// Shared by the waiting threads and the bus thread; `stop()` wakes the waits.
    private let waits = Monitor(Waits())

    private struct Waits {
        /// The cameras whose wait is over (found: back at that device; nil: timed out).
        var ready: [(index: Int, found: CaptureDevice?, lostAt: ContinuousClock.Instant)] = []
        var stopped = false
    }

    /// For the cameras of `composition` (their identities read before the pipeline opened
    /// them; nil for one that could not be read, which is then not waited for).
    init(composition: Composition, identities: [DeviceIdentity?], timeout: TimeSpec?, pipeline: Pipeline) {
        self.composition = composition
        self.identities = identities
        self.timeout = timeout
        self.pipeline = pipeline
    }

    /// Reads each camera's identity (what finds it again after an unplug).
    static func identities(of composition: Composition) -> [DeviceIdentity?] {
        composition.cameras.map { try? DeviceIdentity.read(path: $0.path) }
    }

    /// Whether camera `index` (0-based) can be waited for.
    func canWait(for index: Int) -> Bool { identities.indices.contains(index) && identities[index] != nil }

    /// Camera `index` was lost: waits for it on a thread of its own.
    func lost(_ index: Int) {
        guard canWait(for: index), let identity = identities[index] else { return }
        let lostAt = ContinuousClock.now
        let wait = CameraWait(for: identity, timeout: timeout, from: lostAt)
        NamedThread.start("camrec-cell\(index + 1)") { [self] in
            let outcome = wait.wait(calledOff: { waits.withLock { $0.stopped } }, pause: { interval in
                waits.wait(until: \.stopped, deadline: .now + interval) { _, _ in }
            })
            let found: CaptureDevice?
            switch outcome {
            case .calledOff: return
            case .back(let device): found = device
            case .timedOut: found = nil
            }
            let posted = waits.withLock { waits -> Bool in
                if waits.stopped { return false }
                waits.ready.append((index, found, lostAt))
                return true
            }
            if posted { _ = pipeline.postApplicationMessage(Self.wake) }
        }
    }

    /// Ends every wait (the run is ending).
    func stop() {
        waits.withLockWaking { $0.stopped = true }
    }

    /// On the bus thread, after `wake`: puts back the cameras that are back, and says which
    /// waits are over.
    func takeBack() -> [Outcome] {
        let due = waits.withLock { waits in
            defer { waits.ready.removeAll() }
            return waits.ready
        }
        return due.map { index, found, lostAt in
            let name = "camera \(index + 1) (\(composition.cameras[index].path))"
            guard let found else {
                let limit = timeout.map { " within \($0.description)" } ?? ""
                return .gone(index: index, message: "\(name) did not come back\(limit): its cell stays black")
            }
            do throws(GStreamerError) {
                let (source, sink, pad) = try rebuild(index, at: found.path)
                return .back(index: index, device: found.path, gap: (ContinuousClock.now - lostAt) / .seconds(1),
                             source: source, stillSink: sink, pad: pad)
            } catch {
                return .gone(index: index, message: "\(name) is back at \(found.path) but could not be put back in its cell (\(error)): its cell stays black")
            }
        }
    }

    /// Takes camera `index`'s old branch out of the pipeline and puts a new one in, from
    /// the camera at `path` into a new compositor pad with the same rectangle.
    private func rebuild(_ index: Int, at path: String) throws(GStreamerError) -> (Element, AppSink, Pad) {
        let canvas = try pipeline.element(named: "canvas")
        try removeBranch(index, canvas: canvas)
        let number = index + 1
        let bin = try Bin.parseBin(composition.branch(index, path: path, quote: ShellQuoting.quote, into: nil))
        try bin.set("name", "branch\(number)")
        try pipeline.add(bin)
        let pad = try canvas.requestPad("sink_%u")
        let rect = composition.cameras[index].rect
        try pad.set("xpos", rect.x)
        try pad.set("ypos", rect.y)
        try pad.set("width", rect.width)
        try pad.set("height", rect.height)
        try bin.staticPad("src").link(pad)
        let source = try bin.element(named: "camera\(number)")
        let sink = try AppSink(bin.element(named: Composition.stillSinkName(index)))
        guard bin.syncStateWithParent() else {
            _ = try? bin.setState(.null)
            try? pipeline.remove(bin)
            canvas.releaseRequestPad(pad)
            throw .stateChange(element: "branch\(number)", to: .playing)
        }
        return (source, sink, pad)
    }

    /// Stops, unlinks and removes camera `index`'s branch (the first one, element by
    /// element; a rebuilt one, its bin) and gives back its compositor pad.
    private func removeBranch(_ index: Int, canvas: Element) throws(GStreamerError) {
        let number = index + 1
        if let bin = try? pipeline.element(named: "branch\(number)") {
            _ = try bin.setState(.null)
            if let output = try? bin.staticPad("src"), let pad = output.peer {
                output.unlink(pad)
                canvas.releaseRequestPad(pad)
            }
            try pipeline.remove(bin)
            return
        }
        let elements = composition.branchElements(index).compactMap { try? pipeline.element(named: $0) }
        for element in elements { _ = try element.setState(.null) }
        if let fit = try? pipeline.element(named: "fit\(number)"), let output = try? fit.staticPad("src"), let pad = output.peer {
            output.unlink(pad)
            canvas.releaseRequestPad(pad)
        }
        for element in elements { try pipeline.remove(element) }
    }
}

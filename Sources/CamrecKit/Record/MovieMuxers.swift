import GStreamer
import Synchronization

/// The muxers that write a recording's movie files, as they come: the one named "mux",
/// or each one a segmented run's splitmuxsink makes (with `async-finalize`, a new muxer
/// for every segment, announced before its file is opened). Each gets its fragment
/// headers mended (``FragmentRepair``), and the newest is where a Matroska segment's date
/// is set as its file is opened (``MatroskaCreationTime``).
final class MovieMuxers: Sendable {
    private struct State {
        var probes: [ProbeToken] = []
        var newest: Element?
        var signal: SignalToken?
        var removed = false
    }

    private let state = Mutex(State())

    /// Watches the movie muxers of `pipeline`.
    init(in pipeline: Pipeline) {
        guard let mux = try? pipeline.element(named: "mux") else { return }
        let signal = try? mux.onMuxerAdded { [weak self] muxer in self?.adopt(muxer) }
        state.withLock { $0.signal = signal }
        adopt(mux.child(named: "muxer") ?? mux)
    }

    private func adopt(_ muxer: Element) {
        let isNew = state.withLock { state -> Bool in
            // The first muxer may be announced too: it is watched once.
            guard !state.removed, state.newest?.elementPointer != muxer.elementPointer else { return false }
            state.newest = muxer
            return true
        }
        guard isNew, let probe = FragmentRepair.watch(muxer) else { return }
        state.withLock { $0.probes.append(probe) }
    }

    /// How many muxers have their fragment headers mended so far.
    var watched: Int { state.withLock { $0.probes.count } }

    /// The newest muxer when it is matroskamux (a segment's, while its file is being opened).
    var newestMatroska: Element? {
        state.withLock { $0.newest }.flatMap { $0.factoryName == "matroskamux" ? $0 : nil }
    }

    /// Has splitmuxsink (`splitter`; nil: one movie) name each segment's file from `plan`,
    /// and give a Matroska segment its date as the file is opened: its first frame's
    /// capture time, which `gate` noted.
    func nameSegments(of splitter: Element?, plan: OutputPlan, gate: FrameGate) throws(CamrecError) -> SignalToken? {
        do {
            return try splitter?.onFormatLocationFull { [plan, gate, self] fragment, _ in
                if let matroska = newestMatroska, let time = gate.segment(Int(fragment))?.firstCapture {
                    MatroskaCreationTime.set(time, on: matroska)
                }
                return plan.nextLocation()
            }
        } catch {
            throw CamrecError(.failure, "could not name the segments' files (\(error))")
        }
    }

    /// One Matroska movie's date, set as its first frame passes the gate (the gate's
    /// `firstCaptureNoted`); nil for segments (`nameSegments`) and other containers.
    func movieDate(segmented: Bool) -> (@Sendable (Int, WallTime) -> Void)? {
        guard !segmented, let matroska = newestMatroska else { return nil }
        return { file, time in
            if file == 0 { MatroskaCreationTime.set(time, on: matroska) }
        }
    }

    /// Stops watching (the pipeline has stopped).
    func remove() {
        let (signal, probes) = state.withLock { state in
            defer { state.probes = []; state.signal = nil; state.removed = true }
            return (state.signal, state.probes)
        }
        signal?.disconnect()
        for probe in probes { probe.remove() }
    }
}

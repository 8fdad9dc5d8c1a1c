import CGStreamer
import CGStreamerShim

/// One buffer pool entry of an ALLOCATION query, copied out (safe to keep): what the
/// element that answered asks of the buffers it will be sent.
public struct AllocationPool: Sendable, Equatable {
    /// Whether the entry names a pool object (nil pool: only the numbers are proposed).
    public var hasPool: Bool
    /// Size of each buffer in bytes (0: any).
    public var size: Int
    /// Buffers the pool must have (the answerer's need, e.g. what it holds at once).
    public var minimumBuffers: Int
    /// Buffers the pool may have (0: unlimited).
    public var maximumBuffers: Int

    /// An entry with these values.
    public init(hasPool: Bool, size: Int, minimumBuffers: Int, maximumBuffers: Int) {
        self.hasPool = hasPool
        self.size = size
        self.minimumBuffers = minimumBuffers
        self.maximumBuffers = maximumBuffers
    }
}

/// A query we do not own: a borrowed view of the query a pad probe sees, valid only during
/// the callback that received it (no reference is taken; never keep the view).
public struct QueryView {
    /// The borrowed query.
    public let queryPointer: UnsafeMutablePointer<GstQuery>

    /// Views a query someone else keeps alive for as long as the view is used.
    public init(borrowing pointer: UnsafeMutablePointer<GstQuery>) {
        queryPointer = pointer
    }

    /// GStreamer's name of the query type ("allocation", "caps", …).
    public var typeName: String {
        gst_query_type_get_name(camrec_query_type(queryPointer)).map { String(cString: $0) } ?? "unknown"
    }

    /// The same query as an ALLOCATION query; nil for other types.
    public var allocation: AllocationQueryView? {
        camrec_query_type(queryPointer) == GST_QUERY_ALLOCATION ? AllocationQueryView(queryPointer) : nil
    }
}

extension Pad {
    /// The pad this one is linked to (transfer full: released with the wrapper); nil when
    /// unlinked.
    public var peer: Pad? {
        gst_pad_get_peer(padPointer).map { Pad($0, transfer: .full) }
    }

    /// Asks this pad to answer `query` (for a downstream query: a sink pad, usually a peer);
    /// true when it did. The answer is written into the query.
    public func answer(_ query: QueryView) -> Bool {
        gst_pad_query(padPointer, query.queryPointer) != 0
    }
}

/// A borrowed ALLOCATION query: the question an element sends downstream before it picks a
/// buffer pool ("these caps: which pool, how many buffers?"). A probe that sees it before
/// it is sent (`ProbeKind.downstreamQuery`) can have the peer answer it (`Pad.answer`),
/// change the answer and return `.handled`: the asking element then reads the changed one.
public struct AllocationQueryView {
    private let query: UnsafeMutablePointer<GstQuery>

    init(_ query: UnsafeMutablePointer<GstQuery>) { self.query = query }

    /// The caps the buffers will have (the wrapper takes its own reference).
    public var caps: Caps? {
        var caps: UnsafeMutablePointer<GstCaps>?
        var needPool: gboolean = 0
        gst_query_parse_allocation(query, &caps, &needPool)
        return caps.map { Caps($0, transfer: .none) }
    }

    /// The pool entries of the answer, in order (the asking element reads the first).
    public var pools: [AllocationPool] {
        (0..<gst_query_get_n_allocation_pools(query)).map { index in
            var pool: UnsafeMutablePointer<GstBufferPool>?
            var size: guint = 0, minimum: guint = 0, maximum: guint = 0
            gst_query_parse_nth_allocation_pool(query, index, &pool, &size, &minimum, &maximum)
            // The parse hands us a reference to the pool object (transfer full).
            if let pool { gst_object_unref(UnsafeMutableRawPointer(pool)) }
            return AllocationPool(hasPool: pool != nil, size: Int(size), minimumBuffers: Int(minimum),
                                  maximumBuffers: Int(maximum))
        }
    }

    /// Whether the answer may be changed here (only the query's single owner may).
    public var isWritable: Bool { camrec_query_is_writable(query) != 0 }

    /// Sets the minimum buffer count of pool entry `index`, keeping its pool object, size
    /// and maximum (a maximum below the new minimum is raised to it). False when the
    /// query is not writable or has no such entry.
    @discardableResult
    public func setMinimumBuffers(_ minimum: Int, ofPool index: Int) -> Bool {
        guard isWritable, index >= 0, index < Int(gst_query_get_n_allocation_pools(query)),
              let wanted = guint(exactly: minimum)
        else { return false }
        var pool: UnsafeMutablePointer<GstBufferPool>?
        var size: guint = 0, current: guint = 0, maximum: guint = 0
        gst_query_parse_nth_allocation_pool(query, guint(index), &pool, &size, &current, &maximum)
        // The set takes a reference of its own (transfer none): ours goes after it.
        defer { if let pool { gst_object_unref(UnsafeMutableRawPointer(pool)) } }
        gst_query_set_nth_allocation_pool(query, guint(index), pool, size, wanted,
                                          maximum != 0 && maximum < wanted ? wanted : maximum)
        return true
    }

    /// Adds a pool entry without a pool object: the numbers only (the asking element uses
    /// its own pool or makes one). False when the query is not writable.
    @discardableResult
    public func addPool(size: Int, minimumBuffers: Int, maximumBuffers: Int) -> Bool {
        guard isWritable, let size = guint(exactly: size), let minimum = guint(exactly: minimumBuffers),
              let maximum = guint(exactly: maximumBuffers)
        else { return false }
        gst_query_add_allocation_pool(query, nil, size, minimum, maximum)
        return true
    }
}

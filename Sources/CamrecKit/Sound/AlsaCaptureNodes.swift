#if canImport(Glibc)
import Glibc
#endif

/// ALSA capture PCM nodes in /dev/snd (`pcmC1D0c` is "hw:1,0"), read without alsa-lib.
public enum AlsaCaptureNodes {
    /// One capture node.
    public struct Node: Sendable, Equatable {
        /// Card number (C in hw:C,D).
        public var card: Int
        /// Device number on the card (D in hw:C,D).
        public var device: Int
        /// Whether this user may open it for reading and writing (`access`; always true for root).
        public var permitted: Bool

        public init(card: Int, device: Int, permitted: Bool = true) {
            self.card = card
            self.device = device
            self.permitted = permitted
        }

        /// "hw:1,0".
        public var name: String { "hw:\(card),\(device)" }
        /// "pcmC1D0c", its node's file name.
        public var nodeName: String { "pcmC\(card)D\(device)c" }
    }

    /// What opening a node says about it.
    public enum State: Sendable, Equatable {
        /// Opened (and closed again at once).
        case free
        /// No such node.
        case missing
        /// Another program holds it (EBUSY).
        case busy
        /// This user may not open it (EACCES, EPERM).
        case forbidden
        /// Some other errno, as text.
        case failed(String)
    }

    /// The capture nodes in `folder`, sorted by card then device.
    public static func list(folder: String = "/dev/snd") -> [Node] {
        guard let directory = opendir(folder) else { return [] }
        defer { closedir(directory) }
        var found: [Node] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard var node = parse(node: name) else { continue }
            node.permitted = access(folder + "/" + name, R_OK | W_OK) == 0
            found.append(node)
        }
        return found.sorted { ($0.card, $0.device) < ($1.card, $1.device) }
    }

    /// The node for "pcmC0D0c" (a capture node); nil for anything else.
    public static func parse(node: String) -> Node? {
        guard node.hasPrefix("pcmC"), node.hasSuffix("c") else { return nil }
        let parts = node.dropFirst(4).dropLast().split(separator: "D")
        guard parts.count == 2, let card = Int(parts[0]), let device = Int(parts[1]) else { return nil }
        return Node(card: card, device: device)
    }

    /// Opens the node read-write and non-blocking, as alsasrc would, and closes it again:
    /// whether it is there, free, held by another program or forbidden. (Root is never
    /// refused, so `.forbidden` is only seen by other users.)
    public static func state(of node: Node, folder: String = "/dev/snd") -> State {
        let path = folder + "/" + node.nodeName
        let fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)
        if fd >= 0 {
            close(fd)
            return .free
        }
        return state(errno: errno)
    }

    /// The state an `open` errno means.
    public static func state(errno code: Int32) -> State {
        switch code {
        case ENOENT, ENODEV, ENXIO: .missing
        case EBUSY: .busy
        case EACCES, EPERM: .forbidden
        default: .failed(String(cString: strerror(code)))
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// udev's stable names for V4L2 devices: the links in `/dev/v4l/by-id` (made from the
/// camera's vendor, model and serial number, the same in any port) and `/dev/v4l/by-path`
/// (made from the port, the same for any camera plugged into it). Each points to the node the
/// device has now, e.g. `usb-046d_HD_Pro_Webcam_C920_ABCD1234-video-index0 -> ../../video2`.
///
/// Node numbers (/dev/videoN) change when a camera is plugged in again; these names do not.
/// Machines without udev (containers, some embedded systems) have neither directory.
public struct StableNames: Sendable, Hashable {
    /// The folder of by-id links, normally `/dev/v4l/by-id`.
    public var byIDDirectory: String
    /// The folder of by-path links, normally `/dev/v4l/by-path`.
    public var byPathDirectory: String

    /// Names read from the given folders (tests use folders of their own).
    public init(byIDDirectory: String, byPathDirectory: String) {
        self.byIDDirectory = byIDDirectory
        self.byPathDirectory = byPathDirectory
    }

    /// The system's folders, `/dev/v4l/by-id` and `/dev/v4l/by-path`.
    public static let system = StableNames(byIDDirectory: "/dev/v4l/by-id", byPathDirectory: "/dev/v4l/by-path")

    /// Whether `path` is a link directly inside one of the two folders, such as
    /// `/dev/v4l/by-id/usb-…-video-index0` (text only: the link need not exist).
    public func contains(_ path: String) -> Bool {
        [byIDDirectory, byPathDirectory].contains { directory in
            path.hasPrefix(directory + "/") && !path.dropFirst(directory.count + 1).isEmpty
                && !path.dropFirst(directory.count + 1).contains("/")
        }
    }

    /// The links present now, each by the node it resolves to. A link whose node is missing
    /// is left out; of several links to one node, the first by name is kept.
    public func snapshot() -> Snapshot {
        Snapshot(byID: Self.links(in: byIDDirectory), byPath: Self.links(in: byPathDirectory))
    }

    /// The stable names present at one moment.
    public struct Snapshot: Sendable, Hashable {
        /// By-id link paths by the node path (symlinks resolved) they point to.
        public let byID: [String: String]
        /// By-path link paths by node path.
        public let byPath: [String: String]

        /// A snapshot of the given links (node path → link path).
        public init(byID: [String: String] = [:], byPath: [String: String] = [:]) {
            self.byID = byID
            self.byPath = byPath
        }

        /// The links that point to the device at `node` (a node path or a link to one).
        public func names(forNode node: String) -> (byID: String?, byPath: String?) {
            let resolved = StableNames.resolve(node) ?? node
            return (byID[resolved], byPath[resolved])
        }
    }

    /// `path` with every symlink resolved (realpath(3)), or nil when it leads nowhere.
    public static func resolve(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Node → link for the links in `directory` (none when it cannot be read).
    static func links(in directory: String) -> [String: String] {
        var result: [String: String] = [:]
        for name in entries(of: directory) {
            let link = directory + "/" + name
            guard let node = resolve(link), result[node] == nil else { continue }
            result[node] = link
        }
        return result
    }

    /// The names in `directory` but "." and "..", sorted; empty when it cannot be read.
    static func entries(of directory: String) -> [String] {
        guard let stream = opendir(directory) else { return [] }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = cString(tuple: entry.pointee.d_name)
            if name != "." && name != ".." && !name.isEmpty { names.append(name) }
        }
        return names.sorted()
    }
}

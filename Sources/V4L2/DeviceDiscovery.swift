#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Finds cameras by probing device paths with V4L2 ioctls.
///
/// GStreamer's device monitor lists cameras through udev only, and the emulated camera used in
/// tests cannot fake a listing of /dev, so this never reads /dev: it stats the fixed candidates
/// /dev/video0 … /dev/video63, then the paths in `CAMREC_DEVICE_PATHS` (colon-separated). It
/// does read /dev/v4l/by-id and /dev/v4l/by-path (`StableNames`) to give each camera its stable
/// names, and a link given as a path (`--device /dev/v4l/by-id/…`) is resolved to its node.
public enum DeviceDiscovery {
    /// The environment variable with extra device paths, colon-separated.
    public static let pathsVariable = "CAMREC_DEVICE_PATHS"

    /// How many /dev/videoN nodes are tried.
    public static let standardNodeCount = 64

    /// Candidate paths in probing order: /dev/video0…63, then `extraPaths` (colon-separated;
    /// empty entries ignored), with duplicates removed keeping the first.
    public static func candidatePaths(extraPaths: String? = environmentPaths()) -> [String] {
        var result: [String] = []
        var seen = Set<String>()
        let standard = (0..<standardNodeCount).map { "/dev/video\($0)" }
        let extra = (extraPaths ?? "").split(separator: ":").map { String($0).trimmingSpaces }.filter { !$0.isEmpty }
        for path in standard + extra where seen.insert(path).inserted {
            result.append(path)
        }
        return result
    }

    /// The value of `CAMREC_DEVICE_PATHS`, if set.
    public static func environmentPaths() -> String? {
        getenv(pathsVariable).map { String(cString: $0) }
    }

    /// Probes every candidate. Capture devices get their position as `index`. Paths that are
    /// missing or not capture devices (metadata nodes, codecs) are skipped silently, except a
    /// missing path someone listed in `CAMREC_DEVICE_PATHS`; other failures (permission,
    /// busy, ioctl errors) are kept in `failures` so that "no camera found" can say why.
    public static func scan(extraPaths: String? = environmentPaths()) -> DeviceScan {
        scan(extraPaths: extraPaths, names: StableNames.system.snapshot())
    }

    /// `scan` with the stable names read beforehand.
    static func scan(extraPaths: String?, names: StableNames.Snapshot) -> DeviceScan {
        let explicit = Set(candidatePaths(extraPaths: extraPaths).dropFirst(standardNodeCount))
        var devices: [CaptureDevice] = []
        var failures: [DeviceError] = []
        var seen = Set<String>()
        for path in candidatePaths(extraPaths: extraPaths) {
            // A listed symlink (/dev/v4l/by-id/…) must not show the same camera twice.
            guard seen.insert(canonicalPath(path)).inserted else { continue }
            do {
                var device = try probe(path: path, names: names)
                device.index = devices.count
                devices.append(device)
            } catch {
                switch error {
                case .notACaptureDevice: continue
                case .notFound: if explicit.contains(path) { failures.append(error) }
                default: failures.append(error)
                }
            }
        }
        return DeviceScan(devices: devices, failures: failures)
    }

    /// The path with symlinks resolved, or the path itself when it cannot be resolved (as for
    /// emulated devices, which exist only for stat/open).
    static func canonicalPath(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The capture devices found (see `scan`), indexed from 0.
    public static func discover(extraPaths: String? = environmentPaths()) -> [CaptureDevice] {
        scan(extraPaths: extraPaths).devices
    }

    /// The camera `selector` names. A path is probed directly (so it may lie outside the
    /// candidates, and its failure says exactly why: busy, permission, missing); an index or a
    /// name is resolved against a full scan.
    public static func find(_ selector: DeviceSelector,
                            extraPaths: String? = environmentPaths()) throws(SelectionError) -> CaptureDevice {
        try select(selector, extraPaths: extraPaths).device
    }

    /// The camera `selector` names, as `find` does, and the nodes passed over on the way that
    /// might have been the one meant (see `Selection.skipped`).
    public static func select(_ selector: DeviceSelector,
                              extraPaths: String? = environmentPaths()) throws(SelectionError) -> Selection {
        if case .path(let path) = selector {
            do {
                // index 0: not scanning all cameras just to number this one
                return Selection(device: try probe(path: path), skipped: [])
            } catch {
                throw .device(error)
            }
        }
        let scan = scan(extraPaths: extraPaths)
        let device = try selector.resolve(in: scan)
        return Selection(device: device, skipped: skipped(by: selector, choosing: device.path, failures: scan.failures,
                                                         order: candidatePaths(extraPaths: extraPaths)))
    }

    /// The failures of a scan (in probing `order`) that `selector` may have meant instead of
    /// the camera at `chosen`.
    static func skipped(by selector: DeviceSelector, choosing chosen: String, failures: [DeviceError],
                        order: [String]) -> [DeviceError] {
        switch selector {
        case .index:
            // Only a node probed before the chosen camera would have had its index.
            let position = { (path: String) in order.firstIndex(of: path) ?? order.count }
            return failures.filter { position($0.path) < position(chosen) }
        case .name:
            // A node that cannot be opened has no name to compare: any of them may have matched.
            return failures
        case .path:
            return []
        }
    }

    /// Probes one path: it must be a character device answering VIDIOC_QUERYCAP with streaming
    /// video capture. A symlink to one (such as /dev/v4l/by-id/…) gives the device at the node it
    /// points to now, with `path` that node; errors name the path as given. The device's stable
    /// links are filled in. The device is opened only for the duration of the call.
    public static func probe(path: String) throws(DeviceError) -> CaptureDevice {
        try probe(path: path, names: StableNames.system.snapshot())
    }

    /// `probe` with the stable names read beforehand.
    static func probe(path: String, names: StableNames.Snapshot) throws(DeviceError) -> CaptureDevice {
        var info = stat()
        guard stat(path, &info) == 0 else { throw DeviceError.fromOpen(path: path, errno: errno) }
        guard info.st_mode & S_IFMT == S_IFCHR else { throw .notACaptureDevice(path: path) }
        let node = nodePath(path)
        let device = try VideoDevice(path: path).probe()
        let links = names.names(forNode: node)
        return device.at(node: node, byID: links.byID, byPath: links.byPath)
    }

    /// The node a symlink points to now (/dev/v4l/by-id/… → /dev/video2); any other path as it is.
    public static func nodePath(_ path: String) -> String {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else { return path }
        return StableNames.resolve(path) ?? path
    }

    /// The camera with `identity` among the devices present now, probed; nil when it is not
    /// there (yet). Its by-id link is tried first (it names the camera in whatever port, at
    /// whatever node), then a scan is matched by bus info and card (`DeviceIdentity.find`).
    /// Throws when the by-id link leads to the camera but it cannot be used (busy, permission
    /// denied): the camera is back, but another program has it or the user may not open it.
    public static func locate(_ identity: DeviceIdentity,
                              extraPaths: String? = environmentPaths()) throws(DeviceError) -> CaptureDevice? {
        let names = StableNames.system.snapshot()
        if let link = identity.byID {
            do {
                return try probe(path: link, names: names)
            } catch {
                switch error {
                case .notFound, .notACaptureDevice: break  // not (or no longer) there: look by bus and card
                default: throw error
                }
            }
        }
        return identity.find(in: scan(extraPaths: extraPaths, names: names).devices)
    }
}

/// A camera chosen by a `DeviceSelector`, and the nodes passed over that might have been it.
public struct Selection: Sendable, Equatable {
    /// The camera.
    public let device: CaptureDevice
    /// Nodes that could not be probed (busy, permission, …) and might have been the camera
    /// asked for: for an index (the default camera is index 0), those probed before the
    /// chosen one; for a name, all of them; for a path, none (it is probed alone).
    public let skipped: [DeviceError]

    /// A selection.
    public init(device: CaptureDevice, skipped: [DeviceError]) {
        self.device = device
        self.skipped = skipped
    }
}

/// The result of a scan: the cameras, and the failures worth telling a person about.
public struct DeviceScan: Sendable {
    /// Capture devices in discovery order, `index` set to their position.
    public let devices: [CaptureDevice]
    /// Nodes that exist but could not be probed (permission denied, busy, ioctl errors), and
    /// missing paths named in `CAMREC_DEVICE_PATHS`.
    public let failures: [DeviceError]

    /// A scan result.
    public init(devices: [CaptureDevice], failures: [DeviceError] = []) {
        self.devices = devices
        self.failures = failures
    }
}

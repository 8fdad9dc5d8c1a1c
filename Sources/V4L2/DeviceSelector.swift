/// Which camera a person asked for: `--device /dev/video2`, `--device 1` or `--device logitech`.
public enum DeviceSelector: Sendable, Hashable, CustomStringConvertible {
    /// An absolute device path: a node such as /dev/video2, or a link to one such as udev's
    /// /dev/v4l/by-id/… (which names the camera whatever node it has). It need not be in the
    /// discovered list (it is probed directly).
    case path(String)
    /// A position in the discovered list, from 0.
    case index(Int)
    /// A case-insensitive part of the card name; must match exactly one camera.
    case name(String)

    /// Parses a selector: text starting with "/" is a path, a non-negative whole number an
    /// index, anything else a name. Nil for empty text.
    public init?(_ text: String) {
        let trimmed = text.trimmingSpaces
        if trimmed.isEmpty { return nil }
        if trimmed.hasPrefix("/") {
            self = .path(trimmed)
        } else if trimmed.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(trimmed) {
            self = .index(number)
        } else {
            self = .name(trimmed)
        }
    }

    /// The text form: the path, the index, or the name.
    public var description: String {
        switch self {
        case .path(let path): path
        case .index(let index): String(index)
        case .name(let name): name
        }
    }

    /// The camera this selector picks among `devices` (as `DeviceDiscovery` returns them); a path
    /// must be one of them here, by its node or one of its stable links (`DeviceDiscovery.find`
    /// probes a path directly instead). `failures` from the scan make "no camera found" specific.
    public func resolve(in devices: [CaptureDevice], failures: [DeviceError] = []) throws(SelectionError) -> CaptureDevice {
        guard !devices.isEmpty else { throw .noCameras(failures: failures) }
        switch self {
        case .path(let path):
            if let device = devices.first(where: { $0.path == path || $0.byID == path || $0.byPath == path }) {
                return device
            }
            throw .noMatch(selector: description, cameras: devices.map(\.label))
        case .index(let index):
            if let device = devices.first(where: { $0.index == index }) { return device }
            throw .noMatch(selector: description, cameras: devices.map { "\($0.index): \($0.label)" })
        case .name(let name):
            let needle = name.lowercased()
            let matches = devices.filter { $0.card.lowercased().contains(needle) }
            if matches.count == 1, let device = matches.first { return device }
            if matches.isEmpty { throw .noMatch(selector: name, cameras: devices.map(\.label)) }
            throw .ambiguous(selector: name, matches: matches.map(\.label))
        }
    }

    /// Resolves against a whole scan (its devices and failures).
    public func resolve(in scan: DeviceScan) throws(SelectionError) -> CaptureDevice {
        try resolve(in: scan.devices, failures: scan.failures)
    }
}

/// Why a `DeviceSelector` picked no camera.
public enum SelectionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No camera was found at all; `failures` are nodes that exist but could not be opened.
    case noCameras(failures: [DeviceError])
    /// Cameras exist but none matches; `cameras` lists them as "/dev/video0 (Card)".
    case noMatch(selector: String, cameras: [String])
    /// The name matches several cameras.
    case ambiguous(selector: String, matches: [String])
    /// A camera selected by path could not be probed.
    case device(DeviceError)

    /// One line a person can act on.
    public var message: String {
        switch self {
        case .noCameras(let failures):
            // A busy or permission failure explains an empty list better than generic advice.
            if let telling = DeviceError.mostTelling(failures) {
                return "no usable camera found: \(telling.message)"
            }
            return "no camera found: is one connected? (checked /dev/video0…/dev/video63 and $\(DeviceDiscovery.pathsVariable))"
        case .noMatch(let selector, let cameras):
            return "no camera matches '\(selector)'; cameras: \(cameras.joined(separator: ", "))"
        case .ambiguous(let selector, let matches):
            return "'\(selector)' matches several cameras: \(matches.joined(separator: ", ")); use a path or an index"
        case .device(let error):
            return error.message
        }
    }

    /// Same as `message`.
    public var description: String { message }
}

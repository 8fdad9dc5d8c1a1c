#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Why a camera could not be opened or queried, in terms a person can act on.
public enum DeviceError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Nothing at that path, or it went away (ENOENT, ENODEV, ENXIO).
    case notFound(path: String)
    /// Another program holds the camera (EBUSY).
    case busy(path: String)
    /// The user may not open it (EACCES, EPERM): usually not in the `video` group.
    case permissionDenied(path: String)
    /// The path is a device, but not one that captures video (a metadata node, an output or codec device).
    case notACaptureDevice(path: String)
    /// open() failed for another reason.
    case openFailed(path: String, errno: Int32)
    /// An ioctl failed for a reason with no better case; `request` is its name, e.g. "VIDIOC_ENUM_FMT".
    case ioctlFailed(path: String, request: String, errno: Int32)

    /// The error for a failed open(2) of `path` with `errno`.
    public static func fromOpen(path: String, errno code: Int32) -> DeviceError {
        switch code {
        case ENOENT, ENODEV, ENXIO, ENOTDIR: .notFound(path: path)
        case EBUSY: .busy(path: path)
        case EACCES, EPERM: .permissionDenied(path: path)
        default: .openFailed(path: path, errno: code)
        }
    }

    /// The error for a failed ioctl `request` on `path` with `errno`. A vanished device
    /// (ENODEV, ENXIO) and EBUSY keep their own cases, because the advice differs.
    public static func fromIoctl(path: String, request: String, errno code: Int32) -> DeviceError {
        switch code {
        case ENODEV, ENXIO: .notFound(path: path)
        case EBUSY: .busy(path: path)
        default: .ioctlFailed(path: path, request: request, errno: code)
        }
    }

    /// Of the failures of a scan that found no camera, the one that best says why: a busy
    /// camera first (another program has it), then a permission problem, then any other but
    /// a missing path; nil when there is none. Its kind decides camrec's exit status, so
    /// the message and the status always agree.
    public static func mostTelling(_ failures: [DeviceError]) -> DeviceError? {
        failures.first { if case .busy = $0 { true } else { false } }
            ?? failures.first { if case .permissionDenied = $0 { true } else { false } }
            ?? failures.first { if case .notFound = $0 { false } else { true } }
    }

    /// A few words on why a camera was passed over, for "skipped PATH: …" warnings.
    public var shortReason: String {
        switch self {
        case .notFound: "it does not exist"
        case .busy: "camera is busy (used by another program)"
        case .permissionDenied: "permission denied (see the video group)"
        case .notACaptureDevice: "not a video capture device"
        case .openFailed(_, let code): "cannot open it: \(errnoDescription(code))"
        case .ioctlFailed(_, let request, let code): "it rejected \(request): \(errnoDescription(code))"
        }
    }

    /// The device path the error is about.
    public var path: String {
        switch self {
        case .notFound(let path), .busy(let path), .permissionDenied(let path), .notACaptureDevice(let path),
             .openFailed(let path, _), .ioctlFailed(let path, _, _):
            path
        }
    }

    /// One line a person can act on.
    public var message: String {
        switch self {
        case .notFound(let path):
            "no camera at \(path): it does not exist or was unplugged; run `camrec devices` to list cameras"
        case .busy(let path):
            "camera \(path) is busy: another program is using the camera; close it (video call, browser tab, another recorder) and try again"
        case .permissionDenied(let path):
            "permission denied opening \(path): add your user to the video group with `sudo usermod -aG video $USER`, then log out and in again"
        case .notACaptureDevice(let path):
            "\(path) is not a video capture device (it may be a metadata or output node); run `camrec devices` to list cameras"
        case .openFailed(let path, let code):
            "cannot open \(path): \(errnoDescription(code))"
        case .ioctlFailed(let path, let request, let code):
            "camera \(path) rejected \(request): \(errnoDescription(code)); the driver may not support it"
        }
    }

    /// Same as `message`.
    public var description: String { message }
}

/// "Invalid argument (EINVAL)": strerror text plus the symbolic name, so reports can be searched.
func errnoDescription(_ code: Int32) -> String {
    let text = strerror(code).map { String(cString: $0) } ?? "error \(code)"
    if let name = errnoNames[code] { return "\(text) (\(name))" }
    return "\(text) (errno \(code))"
}

private let errnoNames: [Int32: String] = [
    EPERM: "EPERM", ENOENT: "ENOENT", EINTR: "EINTR", EIO: "EIO", ENXIO: "ENXIO", EBADF: "EBADF",
    EAGAIN: "EAGAIN", ENOMEM: "ENOMEM", EACCES: "EACCES", EFAULT: "EFAULT", EBUSY: "EBUSY",
    ENODEV: "ENODEV", ENOTDIR: "ENOTDIR", EINVAL: "EINVAL", ENOTTY: "ENOTTY", ENOSPC: "ENOSPC",
    ERANGE: "ERANGE", ENOSYS: "ENOSYS", EPIPE: "EPIPE", ETIMEDOUT: "ETIMEDOUT", EOPNOTSUPP: "EOPNOTSUPP",
]

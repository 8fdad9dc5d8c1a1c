import V4L2
#if canImport(Glibc)
import Glibc
#endif

/// The cameras: each one found (and each node that could not be opened, with why), the
/// one a recording would take, and whether this user is in the `video` group.
enum CameraChecks {
    /// The checks, and the size and rate a recording would have (for space estimates).
    struct Outcome {
        var checks: [DoctorCheck]
        var size: FrameSize
        var rate: FrameRateValue
    }

    static func run(device: String?, size: FrameSize?, rate: FrameRateValue?) -> Outcome {
        let defaultSize = size ?? RecordConfig.defaultTestSize
        let defaultRate = rate ?? RecordConfig.defaultTestRate
        if device == "test" {
            return Outcome(checks: [DoctorCheck(.camera, "test", .ok, "the test pattern (videotestsrc) needs no camera")],
                           size: defaultSize, rate: defaultRate)
        }
        let scan = DeviceDiscovery.scan()
        var checks: [DoctorCheck] = scan.devices.map { camera in
            let formats = camera.formats.map(\.displayFourcc).joined(separator: ", ")
            var check = DoctorCheck(.camera, camera.path, .ok,
                                    "\(camera.card.isEmpty ? "a camera" : camera.card): can be opened (\(formats))")
            check.path = camera.path
            return check
        }
        for failure in scan.failures {
            var check = DoctorCheck(.camera, failure.path, .warning, failure.message, fix: fix(for: failure))
            check.path = failure.path
            checks.append(check)
        }
        if let group = videoGroupCheck(devices: scan.devices.map(\.path) + scan.failures.map(\.path)) {
            checks.append(group)
        }
        do {
            let resolution = try CameraResolver.resolve(device: device, size: size, rate: rate)
            guard case .camera(let path, let format) = resolution.source else {
                return Outcome(checks: checks, size: resolution.size, rate: resolution.rate)
            }
            var check = DoctorCheck(.camera, "recording", .ok,
                                    "a recording\(device.map { " with --device \($0)" } ?? "") takes \(path): "
                                        + "\(format.fourcc) \(resolution.size) at \(resolution.rate) fps")
            check.path = path
            checks.append(check)
            return Outcome(checks: checks, size: resolution.size, rate: resolution.rate)
        } catch {
            checks.append(.problem(.camera, "recording", error, fix: fix(for: error.kind)))
            return Outcome(checks: checks, size: defaultSize, rate: defaultRate)
        }
    }

    /// The one line that fixes a camera a recording cannot use.
    static func fix(for kind: CamrecError.Kind) -> String? {
        switch kind {
        case .noCamera: "plug a camera in, or name one with --device (camrec devices lists them); --device test records a test pattern"
        case .cameraBusy: "close the program that uses the camera (fuser -v /dev/video* names it)"
        case .permissionDenied: "sudo usermod -aG video $USER, then log in again"
        case .usage: "choose a size and frame rate the camera offers (camrec devices lists them)"
        default: nil
        }
    }

    /// The one line that fixes a node that could not be opened.
    static func fix(for failure: DeviceError) -> String? {
        switch failure {
        case .busy(let path): "close the program that uses it (fuser -v \(path) names it)"
        case .permissionDenied: "sudo usermod -aG video $USER, then log in again"
        case .notFound: "check the paths in $\(DeviceDiscovery.pathsVariable)"
        default: nil
        }
    }

    /// A note when this (non-root) user is not in the group that owns the camera nodes:
    /// the desktop session may still give access (logind), but ssh, cron and services do not.
    static func videoGroupCheck(devices: [String]) -> DoctorCheck? {
        guard getuid() != 0, let group = getgrnam("video") else { return nil }
        let videoGID = group.pointee.gr_gid
        let owned = devices.contains { path in
            var info = stat()
            return stat(path, &info) == 0 && info.st_gid == videoGID
        }
        guard owned, !memberGroups().contains(videoGID) else { return nil }
        return DoctorCheck(.camera, "video group", .warning,
                           "you are not in the video group: cameras open only where your desktop session grants them, not from ssh, cron or a service",
                           fix: "sudo usermod -aG video $USER, then log in again")
    }

    /// This process's group IDs (effective and supplementary).
    static func memberGroups() -> Set<gid_t> {
        let count = getgroups(0, nil)
        var groups = [gid_t](repeating: 0, count: Int(max(count, 0)))
        let filled = count > 0 ? getgroups(count, &groups) : 0
        return Set(groups.prefix(Int(max(filled, 0)))).union([getegid()])
    }
}

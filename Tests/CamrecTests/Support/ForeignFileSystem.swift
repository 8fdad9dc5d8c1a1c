import Foundation

/// A small FAT or exFAT file system, mounted for a test as an SD card or USB stick would
/// be: a loop file made by mkfs, mounted by the kernel when it has the driver, else through
/// FUSE (fusefat, exfat-fuse: scripts/deps installs them). Needs root, as CI has.
final class ForeignFileSystem: @unchecked Sendable {
    enum Kind: String, CaseIterable, Sendable {
        case fat = "FAT"
        case exfat = "exFAT"
    }

    let kind: Kind
    /// Where it is mounted.
    let path: String
    private let scratch: TemporaryFolder
    private var loopDevice: String?

    /// Why `kind` cannot be mounted here (printed as the reason its tests are skipped); nil
    /// when it can. Tried once per test run.
    static func unusable(_ kind: Kind) -> String? {
        switch kind {
        case .fat: fatUnusable
        case .exfat: exfatUnusable
        }
    }

    private static let fatUnusable: String? = probe(.fat)
    private static let exfatUnusable: String? = probe(.exfat)

    private static func probe(_ kind: Kind) -> String? {
        do {
            let mounted = try ForeignFileSystem(kind)
            mounted.unmount()
            return nil
        } catch {
            return "\(kind.rawValue) cannot be mounted here: \(error)"
        }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Makes and mounts a fresh 64 MB file system.
    init(_ kind: Kind) throws {
        self.kind = kind
        scratch = try TemporaryFolder()
        path = scratch.path("mnt")
        let image = scratch.path("disk.img")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        guard getuid() == 0 else { throw Failure(description: "mounting needs root") }
        try Self.run("/usr/bin/truncate", ["-s", "64M", image])
        switch kind {
        case .fat: try Self.run("/usr/sbin/mkfs.vfat", [image])
        case .exfat: try Self.run("/usr/sbin/mkfs.exfat", [image])
        }
        // The kernel's driver first; where it has none, FUSE.
        let kernelType = kind == .fat ? "vfat" : "exfat"
        if (try? Self.run("/usr/bin/mount", ["-t", kernelType, "-o", "loop", image, path])) != nil { return }
        switch kind {
        case .fat:
            try Self.run("/usr/bin/fusefat", ["-o", "rw+", image, path])
        case .exfat:
            // exfat-fuse as root wants a block device.
            let device = try Self.run("/usr/sbin/losetup", ["-f", "--show", image]).trimmingCharacters(in: .whitespacesAndNewlines)
            loopDevice = device
            do {
                try Self.run("/usr/sbin/mount.exfat-fuse", [device, path])
            } catch {
                _ = try? Self.run("/usr/sbin/losetup", ["-d", device])
                throw error
            }
        }
    }

    func file(_ name: String) -> String { path + "/" + name }

    /// File names at the top of the file system, sorted.
    var contents: [String] { ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted() }

    /// Unmounts it and removes the image.
    func unmount() {
        _ = try? Self.run("/usr/bin/umount", [path])
        if let loopDevice { _ = try? Self.run("/usr/sbin/losetup", ["-d", loopDevice]) }
        scratch.remove()
    }

    @discardableResult
    private static func run(_ tool: String, _ arguments: [String]) throws -> String {
        guard FileManager.default.isExecutableFile(atPath: tool) else {
            throw Failure(description: "\(tool) is not installed (scripts/deps installs it)")
        }
        // A FUSE mount leaves a daemon behind, which would inherit the descriptors the test
        // process watches its children by (and keep the run waiting): close all but 0-2 first.
        let closeAndRun = #"for fd in $(ls /proc/$$/fd); do [ "$fd" -gt 2 ] && eval "exec $fd>&-"; done; exec "$0" "$@""#
        let result = try ChildProcess.run("/bin/bash", ["-c", closeAndRun, tool] + arguments, timeout: 60)
        guard result.status == 0, !result.timedOut else {
            throw Failure(description: "\(tool) \(arguments.joined(separator: " ")) failed: \(result.stderr)")
        }
        return result.stdoutText
    }
}

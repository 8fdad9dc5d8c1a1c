#if canImport(Glibc)
import Glibc
#endif

/// The mounted file systems, from `/proc/self/mountinfo`: which file system type holds a
/// folder (a FAT-formatted SD card cannot hold a file over 4 GB).
public struct MountTable: Sendable, Equatable {
    /// One mount.
    public struct Mount: Sendable, Equatable {
        /// The device's major number.
        public var major: UInt32
        /// The device's minor number.
        public var minor: UInt32
        /// Where it is mounted (octal escapes such as `\040` decoded).
        public var mountPoint: String
        /// The file system type, e.g. "ext4", "vfat", "exfat", "tmpfs", "fuseblk".
        public var type: String
        /// What is mounted, e.g. "/dev/mmcblk0p1".
        public var source: String
    }

    /// The mounts, in the file's order.
    public var mounts: [Mount]

    /// Parses mountinfo text; lines that do not fit the format are left out.
    public init(mountinfo text: String) {
        mounts = text.split(separator: "\n").compactMap(Self.parse)
    }

    /// The running system's mounts (empty when /proc is not mounted).
    public static func current() -> MountTable {
        MountTable(mountinfo: readText("/proc/self/mountinfo") ?? "")
    }

    /// The mount holding `path` (an existing file or folder, with symbolic links resolved):
    /// among the mounts of its device, the one whose mount point is the longest prefix of
    /// the path (bind mounts share a device); nil when none matches.
    public func mount(holding path: String) -> Mount? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        let resolved = Self.realPath(path) ?? path
        let (major, minor) = Self.split(device: UInt64(info.st_dev))
        return mount(device: (major, minor), path: resolved)
    }

    /// The mount of `device` whose mount point is the longest prefix of `path`; the
    /// mount point prefix alone when no mount has that device.
    public func mount(device: (major: UInt32, minor: UInt32), path: String) -> Mount? {
        func covers(_ mount: Mount) -> Bool {
            mount.mountPoint == "/" || path == mount.mountPoint || path.hasPrefix(mount.mountPoint + "/")
        }
        let sameDevice = mounts.filter { $0.major == device.major && $0.minor == device.minor }
        let pool = sameDevice.isEmpty ? mounts : sameDevice
        return pool.filter(covers).max { $0.mountPoint.count < $1.mountPoint.count }
            ?? sameDevice.first
    }

    /// Whether a file system type is FAT (FAT12/16/32: no file over 4 GB). exFAT is not.
    public static func isFAT(_ type: String) -> Bool {
        ["vfat", "msdos", "fat", "umsdos"].contains(type.lowercased())
    }

    /// The largest file FAT can hold: 4 GiB less one byte.
    public static let fatFileLimit: Int64 = 4 * 1024 * 1024 * 1024 - 1

    /// Major and minor numbers of a `dev_t`, as glibc's `gnu_dev_major`/`gnu_dev_minor`.
    static func split(device: UInt64) -> (UInt32, UInt32) {
        let major = ((device >> 8) & 0xfff) | ((device >> 32) & ~UInt64(0xfff))
        let minor = (device & 0xff) | ((device >> 12) & ~UInt64(0xff))
        return (UInt32(truncatingIfNeeded: major), UInt32(truncatingIfNeeded: minor))
    }

    /// `36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw,errors=continue`
    private static func parse(_ line: Substring) -> Mount? {
        let fields = line.split(separator: " ", omittingEmptySubsequences: true)
        guard fields.count >= 7, let separator = fields.firstIndex(of: "-"), separator >= 6,
              fields.count > separator + 2 else { return nil }
        let numbers = fields[2].split(separator: ":")
        guard numbers.count == 2, let major = UInt32(numbers[0]), let minor = UInt32(numbers[1]) else { return nil }
        return Mount(major: major, minor: minor, mountPoint: unescape(fields[4]),
                     type: String(fields[separator + 1]), source: unescape(fields[separator + 2]))
    }

    /// Decodes mountinfo's octal escapes (`\040` for a space, `\011`, `\012`, `\134`).
    static func unescape(_ field: Substring) -> String {
        var bytes: [UInt8] = []
        var utf8 = Array(field.utf8)[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "\\"), utf8.count >= 3,
               let value = UInt8(String(decoding: utf8.prefix(3), as: UTF8.self), radix: 8) {
                bytes.append(value)
                utf8 = utf8.dropFirst(3)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}

/// A small text file's contents (files under /proc report size 0, so read until the end).
func readText(_ path: String) -> String? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 16384)
    while true {
        let count = read(fd, &buffer, buffer.count)
        if count < 0 && errno == EINTR { continue }
        guard count > 0 else { break }
        bytes += buffer[0..<count]
    }
    return String(decoding: bytes, as: UTF8.self)
}

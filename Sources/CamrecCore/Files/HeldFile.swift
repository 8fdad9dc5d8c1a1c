#if canImport(Glibc)
import Glibc
#endif

/// A claimed temporary file kept open, so that whatever writes it opens the very file
/// camrec claimed, not whatever has its name by then.
///
/// GStreamer's file sinks open their `location` by name, and splitmuxsink opens each
/// segment's file a GOP or more after camrec claimed it. If the folder is removed and made
/// again meanwhile, opening by name would create a new file there, which camrec never
/// claimed and would not clean up. `path` is `/proc/self/fd/N` instead: opening it opens
/// the claimed file itself (even once its name is gone), so a movie whose folder was
/// removed is lost with that folder, never written somewhere else. Where `/proc` is not
/// mounted, `path` is the file's name (the race above stays open, nothing else changes).
/// The descriptor is closed when the last reference goes (the movie committed or discarded).
package final class HeldFile: Sendable {
    /// The open descriptor (O_CLOEXEC: no child process inherits it).
    let descriptor: Int32
    /// What a writer should open: `/proc/self/fd/N`, or the file's name without `/proc`.
    package let path: String

    init(descriptor: Int32, path name: String) {
        self.descriptor = descriptor
        path = Self.procAvailable ? "/proc/self/fd/\(descriptor)" : name
    }

    deinit { close(descriptor) }

    /// Whether this process's descriptors can be opened by path.
    private static let procAvailable = access("/proc/self/fd", X_OK) == 0
}

import CamrecCore
import FoundationEssentials
import MediaValues
#if canImport(Glibc)
import Glibc
#endif

/// The output file of a trim: the final path, and a temporary file beside it that
/// becomes the final file only once it is complete (fsync, then rename).
///
/// Paths are kept as the user spelled them (relative stays relative), as `camrec record`
/// reports them; the default output is derived from the input's spelling.
struct TrimOutput {
    /// Where the result ends up.
    let finalPath: String
    /// The temporary file written first, in the same folder.
    let temporaryPath: String
    /// The container to write.
    let container: MediaContainer

    /// Whether the output is WebM (a `.webm` name): Matroska with the `webm` doctype,
    /// holding only what WebM allows.
    var isWebM: Bool { PathName.pathExtension(finalPath).lowercased() == "webm" }

    /// Resolves and checks the destination before any work is done.
    static func prepare(for request: TrimRequest, inputContainer: MediaContainer) throws(CamrecError) -> TrimOutput {
        let input = request.input
        let final: String
        switch request.destination {
        case .inPlace: final = resolvingLinks(input)
        case .besideInput: final = besideInput(input, container: inputContainer)
        case .path(let path): final = path
        }
        let folder = PathName.deletingLast(final)
        let folderToCheck = folder.isEmpty ? "." : folder
        try Destination.checkFolder(of: final)
        if request.destination != .inPlace {
            if absolute(final) == absolute(input) || Self.sameFile(final, input) {
                throw CamrecError(.cannotCreateOutput, "the output \(final) is the input; use --in-place to replace it")
            }
            if FileManager.default.fileExists(atPath: final) && !request.force {
                throw CamrecError(.cannotCreateOutput, "\(final) already exists; use --force to replace it")
            }
        }
        let ext = PathName.pathExtension(final)
        let container: MediaContainer
        switch request.destination {
        case .inPlace:
            guard inputContainer.written == inputContainer else {
                throw CamrecError(
                    .usage,
                    "cannot trim \(PathName.last(input)) in place: camrec writes no AVI; write the cut as Matroska"
                        + " with -o NAME.mkv"
                )
            }
            container = inputContainer
        case .besideInput: container = MediaContainer(outputExtension: ext) ?? inputContainer
        case .path:
            guard let chosen = MediaContainer(outputExtension: ext) else {
                throw CamrecError(.usage, "cannot tell the format of '\(final)': end OUT with .mp4, .mov, .mkv or .webm")
            }
            container = chosen
        }
        // Shortened (still recognisable) when a valid name near the file system's limit
        // would make the temporary name too long.
        let stem = (folder.isEmpty ? "" : folder + "/") + "." + PathName.last(final)
        let temporary = OutputFile.fitting(stem: stem, suffix: ".trim-\(getpid()).part",
                                           limit: OutputFile.nameLimit(in: folderToCheck))
        return TrimOutput(finalPath: final, temporaryPath: temporary, container: container)
    }

    /// `NAME-trimmed.EXT` in the input's folder, spelled as the input is; an input without
    /// an extension gets its container's, an AVI `.mkv` (the container written for it).
    static func besideInput(_ input: String, container: MediaContainer) -> String {
        let name = PathName.last(input)
        let ext = container.written != container || PathName.pathExtension(name).isEmpty
            ? container.written.fileExtension : PathName.pathExtension(name)
        let trimmed = PathName.deletingExtension(name) + "-trimmed." + ext
        let folder = PathName.deletingLast(input)
        return folder.isEmpty ? trimmed : PathName.appending(folder, trimmed)
    }

    /// The file a path names after following symbolic links (`--in-place` through a link
    /// replaces the file it points to and keeps the link); the path itself when it is no link.
    static func resolvingLinks(_ path: String) -> String {
        var info = stat()
        guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK, let resolved = realpath(path, nil) else {
            return path
        }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private static func absolute(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.path
    }

    private static func sameFile(_ a: String, _ b: String) -> Bool {
        var first = stat()
        var second = stat()
        guard stat(a, &first) == 0, stat(b, &second) == 0 else { return false }
        return first.st_dev == second.st_dev && first.st_ino == second.st_ino
    }

    /// Checks that the temporary file can be created (and removes the probe).
    func checkWritable() throws(CamrecError) {
        let descriptor = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL, 0o666)
        guard descriptor >= 0 else {
            let reason = String(cString: strerror(errno))
            throw CamrecError(.cannotCreateOutput, "cannot create \(temporaryPath): \(reason)")
        }
        close(descriptor)
        unlink(temporaryPath)
    }

    /// Flushes the temporary file to disk and renames it over the final path, keeping the
    /// input's permissions when replacing it in place. The rename goes through `control`,
    /// so a cancellation either comes before it (nothing is written) or not at all.
    func commit(keepingModeOf input: String?, control: TrimControl) throws(CamrecError) {
        if let input {
            var info = stat()
            if stat(input, &info) == 0 { chmod(temporaryPath, info.st_mode & 0o7777) }
        }
        // A replaced input (--in-place) or --force replaces; the existence check at the
        // start already refused an existing output without --force.
        try control.commit { () throws(CamrecError) in
            try Destination.publish(temporaryPath, as: finalPath, replace: true)
        }
    }

    /// Removes the temporary file (after a failure).
    func discard() {
        unlink(temporaryPath)
    }
}

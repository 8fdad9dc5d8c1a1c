import Foundation

/// The output file of a trim: the final path, and a temporary file beside it that
/// becomes the final file only once it is complete (fsync, then rename).
struct TrimOutput {
    /// Where the result ends up.
    let finalPath: String
    /// The temporary file written first, in the same folder.
    let temporaryPath: String
    /// The container to write.
    let container: MediaContainer

    /// Resolves and checks the destination before any work is done.
    static func prepare(for request: TrimRequest, inputContainer: MediaContainer) throws(TrimError) -> TrimOutput {
        let input = URL(fileURLWithPath: request.input).standardizedFileURL
        let final: URL
        switch request.destination {
        case .inPlace:
            final = input
        case .besideInput:
            let base = input.deletingPathExtension().lastPathComponent
            let ext = input.pathExtension
            final = input.deletingLastPathComponent().appendingPathComponent(base + "-trimmed" + (ext.isEmpty ? "" : "." + ext))
        case .path(let path):
            final = URL(fileURLWithPath: path).standardizedFileURL
        }
        let folder = final.deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw TrimError(.cannotCreateOutput, "cannot write \(final.path): folder \(folder) does not exist")
        }
        guard access(folder, W_OK) == 0 else {
            throw TrimError(.cannotCreateOutput, "cannot write \(final.path): folder \(folder) is not writable")
        }
        if request.destination != .inPlace {
            if final.path == input.path || Self.sameFile(final.path, input.path) {
                throw TrimError(.cannotCreateOutput, "the output \(final.path) is the input; use --in-place to replace it")
            }
            if FileManager.default.fileExists(atPath: final.path) && !request.force {
                throw TrimError(.cannotCreateOutput, "\(final.path) already exists; use --force to replace it")
            }
        }
        let container: MediaContainer
        if request.destination == .inPlace {
            container = inputContainer
        } else if let chosen = MediaContainer.forExtension(final.pathExtension) {
            container = chosen
        } else if final.pathExtension.isEmpty {
            container = inputContainer
        } else {
            throw TrimError(.usage, "cannot write '.\(final.pathExtension)' files; name the output .mp4, .mov or .mkv")
        }
        let temporary = final.deletingLastPathComponent()
            .appendingPathComponent(".\(final.lastPathComponent).trim-\(getpid()).part")
        return TrimOutput(finalPath: final.path, temporaryPath: temporary.path, container: container)
    }

    private static func sameFile(_ a: String, _ b: String) -> Bool {
        var first = stat()
        var second = stat()
        guard stat(a, &first) == 0, stat(b, &second) == 0 else { return false }
        return first.st_dev == second.st_dev && first.st_ino == second.st_ino
    }

    /// Checks that the temporary file can be created (and removes the probe).
    func checkWritable() throws(TrimError) {
        let descriptor = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        guard descriptor >= 0 else {
            let reason = String(cString: strerror(errno))
            throw TrimError(.cannotCreateOutput, "cannot create \(temporaryPath): \(reason)")
        }
        close(descriptor)
        unlink(temporaryPath)
    }

    /// Flushes the temporary file to disk and renames it over the final path, keeping the
    /// input's permissions when replacing it in place. The rename goes through `control`,
    /// so a cancellation either comes before it (nothing is written) or not at all.
    func commit(keepingModeOf input: String?, control: TrimControl) throws(TrimError) {
        let descriptor = open(temporaryPath, O_RDONLY)
        guard descriptor >= 0 else { throw TrimError(.cannotCreateOutput, "cannot reopen \(temporaryPath)") }
        if let input {
            var info = stat()
            if stat(input, &info) == 0 { fchmod(descriptor, info.st_mode & 0o7777) }
        }
        let synced = fsync(descriptor) == 0
        close(descriptor)
        guard synced else { throw TrimError(.cannotCreateOutput, "cannot flush \(temporaryPath) to disk") }
        try control.commit { () throws(TrimError) in
            guard rename(temporaryPath, finalPath) == 0 else {
                let reason = String(cString: strerror(errno))
                throw TrimError(.cannotCreateOutput, "cannot rename the result to \(finalPath): \(reason)")
            }
        }
        let folder = (finalPath as NSString).deletingLastPathComponent
        let folderDescriptor = open(folder.isEmpty ? "." : folder, O_RDONLY | O_DIRECTORY)
        if folderDescriptor >= 0 {
            fsync(folderDescriptor)
            close(folderDescriptor)
        }
    }

    /// Removes the temporary file (after a failure).
    func discard() {
        unlink(temporaryPath)
    }
}

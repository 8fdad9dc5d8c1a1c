import CamrecCore
import MediaValues
#if canImport(Glibc)
import Glibc
#endif

/// The output of one recovery: its final path, checked before anything is written, and
/// the hidden temporary file beside it that becomes it once whole.
struct RecoverOutput {
    /// Where the finished movie ends up (before any `-2`: see ``freeName``).
    let final: String
    /// Whether a taken `final` is no failure: the movie takes the next free name
    /// (`NAME-2.EXT`, …). True for default names (beside the input, into a folder), which
    /// nobody asked for by name; false for `-o FILE`.
    let freeName: Bool
    /// Whether the input is removed once the movie has its name (`--in-place` on camrec's
    /// partial file, which drops the `.partial` name).
    let consumesInput: Bool
    /// The file written first (`.NAME.recover-PID.part` in the same folder).
    let temporary: String
    private let source: RecoverSource
    private let replace: Bool
    private let inPlace: Bool
    private let control: RecoverControl

    /// Resolves the final path for `source`, checks it, and claims the temporary file.
    ///
    /// - Throws: usage (64) for a `-o` file of another container or naming the input;
    ///   cannot create output (73) for an existing output without `force`, a folder, or a
    ///   folder that cannot be written.
    static func prepare(for source: RecoverSource, container: MediaContainer, destination: RecoverDestination,
                        force: Bool, control: RecoverControl) throws(CamrecError) -> RecoverOutput {
        let final = RecoverNaming.output(for: source.path, destination: destination, container: container,
                                         stamp: RecoverNaming.stamp(of: source.path))
        let consumesInput = destination == .inPlace && RecoverNaming.dropsPartialName(source.path)
        let inPlace = destination == .inPlace && !consumesInput
        let freeName = destination == .besideInput || consumesInput || { if case .folder = destination { true } else { false } }()
        if case .file(let path) = destination, !container.accepts(extension: OutputFile.split(path).1) {
            let names = container.isISO ? ".mp4 or .mov" : ".mkv"
            throw CamrecError(.usage, "-o \(path): \(source.path) is \(container.isISO ? "an MP4/MOV" : "a Matroska") "
                              + "movie and recovery copies it as it is: end OUT with \(names)")
        }
        try Destination.checkFolder(of: final)
        if !inPlace && !freeName {
            if OpenFiles.FileID(path: final).map({ $0 == OpenFiles.FileID(path: source.path) }) ?? false {
                throw CamrecError(.usage, "the output \(final) is the input; use --in-place to replace it")
            }
            var info = stat()
            if lstat(final, &info) == 0 {
                if RecoverNaming.isFolder(final) {
                    throw CamrecError(.cannotCreateOutput, "\(final) is a folder: give a file name, or the folder as -o")
                }
                if !force {
                    throw CamrecError(.cannotCreateOutput, "\(final) already exists: choose another name with -o, "
                                      + "or pass --force to replace it")
                }
            }
        }
        let folder = OutputFile.folderOf(final)
        let name = final.lastIndex(of: "/").map { String(final[final.index(after: $0)...]) } ?? final
        let stem = (final.contains("/") ? (folder == "/" ? "/" : folder + "/") : "") + "." + name
        let temporary = OutputFile.fitting(stem: stem, suffix: ".recover-\(getpid()).part",
                                           limit: OutputFile.nameLimit(in: folder))
        try control.track(temporary)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else {
            let code = errno
            try? control.track(nil)
            throw CamrecError(code == ENOSPC ? .diskFull : .cannotCreateOutput,
                              "cannot create \(temporary): \(systemMessage(code))")
        }
        close(descriptor)
        return RecoverOutput(final: final, freeName: freeName, consumesInput: consumesInput, temporary: temporary,
                             source: source, replace: inPlace || force, inPlace: inPlace, control: control)
    }

    /// Makes the temporary file the output: flushed, renamed (over the input with
    /// `--in-place`, which must not have changed meanwhile; under the first free name for
    /// default names; the consumed partial input removed once the movie has its name),
    /// folder flushed. Returns the path the movie took. On failure the temporary file is
    /// removed and nothing else changes.
    func publish() throws(CamrecError) -> String {
        if inPlace || consumesInput {
            guard source.isUnchanged else {
                discard()
                throw CamrecError(.failure, "\(source.path) changed while it was being recovered (is something still "
                                  + "writing it?): it was not replaced")
            }
            chmod(temporary, source.mode)
        }
        do {
            guard freeName else {
                try control.publish(temporary, as: final, replace: replace)
                return final
            }
            return try control.publishUnderFreeName(temporary, { RecoverNaming.numbered(final, $0) }) { _ in
                guard consumesInput else { return }
                unlink(source.path)
                Destination.syncFolder(of: source.path)
            }
        } catch {
            discard()
            throw error
        }
    }

    /// Removes the temporary file (after a failure).
    func discard() {
        unlink(temporary)
        try? control.track(nil)
    }
}

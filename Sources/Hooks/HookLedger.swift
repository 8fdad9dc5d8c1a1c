import CamrecCore
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// The files whose `--on-file` command has not ended yet, kept in a small file beside the
/// series (`.NAME.on-file`, one JSON object a line), so that a run killed with SIGKILL (or
/// by a power cut) leaves a list the next run of the same OUTPUT completes first. Written
/// whole (a flushed temporary file renamed over it) at every change; removed when empty.
struct HookLedger: Sendable {
    /// Where it is.
    let path: String

    /// The ledger of the series `output` names (OUTPUT as given).
    init(series output: String) {
        let name = output.split(separator: "/").last.map(String.init) ?? output
        let folder = OutputFile.folderOf(output)
        path = (folder == "/" ? "/" : folder + "/") + "." + name + ".on-file"
    }

    init(path: String) {
        self.path = path
    }

    /// The files it lists; empty when there is none (or it cannot be read: a warning).
    func load(warn: (String) -> Void) -> [HookedFile] {
        guard let handle = fopen(path, "r") else {
            if errno != ENOENT { warn("cannot read \(path) (the files an earlier run's --on-file commands did not finish): \(systemMessage(errno))") }
            return []
        }
        defer { fclose(handle) }
        var files: [HookedFile] = []
        var buffer = [CChar](repeating: 0, count: 1 << 16)
        var bad = 0
        while fgets(&buffer, Int32(buffer.count), handle) != nil {
            let line = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            guard !line.allSatisfy(\.isWhitespace) else { continue }
            if let file = try? JSONDecoder().decode(HookedFile.self, from: Data(line.utf8)) {
                files.append(file)
            } else {
                bad += 1
            }
        }
        if bad > 0 { warn("\(path): \(bad) unreadable line\(bad == 1 ? "" : "s") left out") }
        return files
    }

    /// Writes `files` as the ledger (removes it when there are none). A failure is a
    /// warning: the commands run all the same, only a SIGKILL would forget them.
    func save(_ files: [HookedFile]) throws(CamrecError) {
        guard !files.isEmpty else {
            if unlink(path) == 0 { Destination.syncFolder(of: path) }
            return
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        var bytes: [UInt8] = []
        for file in files {
            guard let line = try? encoder.encode(file) else { continue }
            bytes.append(contentsOf: line)
            bytes.append(UInt8(ascii: "\n"))
        }
        let temporary = try AtomicFile.writeTemporary(bytes, in: OutputFile.folderOf(path), what: "the --on-file list")
        defer { unlink(temporary) }
        try Destination.publish(temporary, as: path, replace: true)
    }
}

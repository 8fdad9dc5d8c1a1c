import CamrecCore
#if canImport(Glibc)
import Glibc
#endif

// Here rather than in Files/AtomicFile.swift: the names come from `StillNaming`, which
// belongs to the stills, above the files.
extension AtomicFile {
    /// Writes `bytes` to the first free name from `naming`, starting at counter `from`;
    /// returns the path and the counter used.
    package static func writeNew(_ bytes: [UInt8], naming: StillNaming, from start: Int) throws(CamrecError) -> (path: String, number: Int) {
        let temporary = try writeTemporary(bytes, in: naming.folder)
        defer { unlink(temporary) }
        var number = start
        while number < start + 100_000 {
            let path = naming.path(number)
            // The one way a finished file takes its name (link, or on FAT/exFAT a
            // no-replace rename): never over an existing still.
            let code = Destination.place(temporary, as: path).code
            if code == 0 {
                Destination.syncFolder(of: path)
                return (path, number)
            }
            guard code == EEXIST else {
                throw CamrecError(.cannotCreateOutput, "cannot create \(path): \(systemMessage(code))")
            }
            number += 1
        }
        throw CamrecError(.cannotCreateOutput, "no free still name like \(naming.path(start))")
    }
}

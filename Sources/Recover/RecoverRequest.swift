import CamrecCore

/// Where `camrec recover` writes a recovered movie.
public enum RecoverDestination: Sendable, Equatable {
    /// Beside the input, named after it (see ``RecoverNaming/besideInput(_:container:)``).
    case besideInput
    /// This file (one input only).
    case file(String)
    /// This existing folder, each movie under its default name.
    case folder(String)
    /// The input itself, replaced atomically.
    case inPlace
}

/// What `camrec recover` was asked to do, checked before any file is read.
public struct RecoverRequest: Sendable, Equatable {
    /// The files to recover, as typed.
    public var inputs: [String]
    /// Where the results go.
    public var destination: RecoverDestination
    /// Whether an existing output may be replaced.
    public var force: Bool

    /// Creates a request; `output` is `-o`'s value (a file, or a folder that exists).
    ///
    /// - Throws: a usage error (exit 64) for no input, `-o` with `--in-place`, or `-o` naming
    ///   something other than an existing folder when there are several inputs.
    public init(inputs: [String], output: String?, inPlace: Bool, force: Bool) throws(CamrecError) {
        guard !inputs.isEmpty else {
            throw CamrecError(.usage, "missing FILE: give the .partial file(s) to recover (see camrec recover --help)")
        }
        switch (output, inPlace) {
        case (.some, true):
            throw CamrecError(.usage, "give either -o OUT or --in-place, not both")
        case (.some(let path), false):
            if RecoverNaming.isFolder(path) {
                destination = .folder(path)
            } else if inputs.count > 1 {
                throw CamrecError(.usage, "-o \(path): with several files, -o must name an existing folder")
            } else if path.hasSuffix("/") {
                throw CamrecError(.usage, "-o \(path): no such folder; create it first")
            } else {
                destination = .file(path)
            }
        case (.none, true):
            destination = .inPlace
        case (.none, false):
            destination = .besideInput
        }
        self.inputs = inputs
        self.force = force
    }
}

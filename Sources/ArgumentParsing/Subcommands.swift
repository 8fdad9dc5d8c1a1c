/// Picks the subcommand from the arguments, falling back to a default one.
///
/// The rule: the first argument names a subcommand only if it exactly equals one of
/// the known names. Anything else (an option, a file name, nothing at all) runs the
/// default subcommand with all the arguments. So with `record` as the default,
/// `camrec --max-duration 600 out.mp4` records, `camrec trim in.mp4 out.mp4` trims,
/// and `camrec devices` lists devices even when a file called `devices` exists: to
/// record to such a file, write `camrec record devices`, `camrec -- devices` or
/// `camrec ./devices`.
public struct Subcommands: Sendable {
    /// Every subcommand name, the default included.
    public let names: [String]
    /// The subcommand run when the first argument is not a subcommand name.
    public let defaultName: String

    /// Creates the selector; `defaultName` is added to `names` if missing.
    public init(_ names: [String], default defaultName: String) {
        self.names = names.contains(defaultName) ? names : names + [defaultName]
        self.defaultName = defaultName
    }

    /// Splits the arguments (without the program name) into the subcommand to run and
    /// the arguments for it.
    public func select(_ arguments: [String]) -> (name: String, arguments: [String]) {
        if let first = arguments.first, names.contains(first) {
            return (first, Array(arguments.dropFirst()))
        }
        return (defaultName, arguments)
    }

    /// The subcommand a first argument that names none probably means (`recrod` →
    /// `record`, `Trim` → `trim`), or nil. Only a word that cannot be anything else
    /// counts: no dot (a file name with an extension), no slash (a path), no leading dash
    /// (an option), and close to a name by ``EditDistance``. Meant for a default
    /// subcommand whose arguments need an extension, so the suggestion never hides a
    /// valid command line.
    public func likelyTypo(in arguments: [String]) -> String? {
        guard let first = arguments.first, !names.contains(first), !first.isEmpty,
              !first.contains("."), !first.contains("/"), !first.hasPrefix("-")
        else { return nil }
        return EditDistance.closest(to: first, among: names)
    }
}

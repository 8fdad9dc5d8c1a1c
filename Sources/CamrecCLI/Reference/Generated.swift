import ArgumentParsing
import CamrecKit

/// What camrec writes from its own help texts: `camrec help --man` (camrec(1) in roff) and
/// `camrec help --completion bash|zsh`, which `scripts/package` installs, and `camrec help
/// --markdown` (docs/cli.md, which `scripts/gen-docs` rewrites).
public enum Generated {
    /// camrec(1), in roff.
    case manPage
    /// docs/cli.md.
    case markdown
    /// A shell's completion script.
    case completion(CompletionScript.Shell)
    /// A request that cannot be met (unknown shell), with its message.
    case invalid(String)

    /// What `camrec help ARGUMENTS` asks for, when it asks for a generated text; nil otherwise.
    public init?(_ arguments: [String]) {
        switch arguments.first {
        case "--man" where arguments.count == 1:
            self = .manPage
        case "--markdown" where arguments.count == 1:
            self = .markdown
        case "--completion":
            guard arguments.count == 2, let shell = CompletionScript.Shell(rawValue: arguments[1]) else {
                self = .invalid("camrec help --completion takes bash or zsh")
                return
            }
            self = .completion(shell)
        default:
            return nil
        }
    }

    /// Prints it (0), or says why it cannot (64, or 1 when a subcommand has no spec).
    public func print() -> ExitStatus {
        let catalog = CommandCatalog.catalog
        let undocumented = catalog.undocumented
        guard undocumented.isEmpty else {
            Console(json: false, quiet: false).fail(CamrecError(.failure,
                "no help spec for subcommand \(undocumented.joined(separator: ", ")): add it to CommandCatalog.spec(for:)"))
            return .failure
        }
        switch self {
        case .manPage:
            Swift.print(ManPage.text(), terminator: "")
        case .markdown:
            Swift.print(CliReference.markdown(), terminator: "")
        case .completion(let shell):
            Swift.print(CompletionScript(catalog: catalog, generatedBy: "camrec help --completion").text(for: shell), terminator: "")
        case .invalid(let message):
            Console(json: false, quiet: false).fail(CamrecError(.usage, message))
            return .usage
        }
        return .success
    }
}

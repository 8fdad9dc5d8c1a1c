import ArgumentParsing
import CamrecKit

/// The shape every subcommand has, as swift-argument-parser's commands do: a spec (its
/// options and help), `validate` (parsed arguments to typed options, usage errors only),
/// and `run` (the work; its errors are values with an exit status). `main` is the same
/// for all of them: help, usage errors as one line (and a JSON `error` line with
/// `--json`), then run.
protocol Subcommand {
    /// The typed options `validate` makes.
    associatedtype Options

    /// The options, positionals and help text.
    static var spec: CommandSpec { get }

    /// The spec the arguments are parsed with: ``spec`` unless the command needs another
    /// (`recover` takes any number of FILEs, its help shows one).
    static var parsingSpec: CommandSpec { get }

    /// Turns parsed arguments into typed options; every problem is a usage error.
    static func validate(_ parsed: ParsedArguments) throws(UsageError) -> Options

    /// Where this run's output goes (`--json`, `--quiet`).
    static func console(for parsed: ParsedArguments) -> Console

    /// Does the work.
    static func run(_ options: Options, console: Console) throws(CamrecError) -> ExitStatus
}

extension Subcommand {
    static var parsingSpec: CommandSpec { spec }

    static func console(for parsed: ParsedArguments) -> Console {
        Console(json: parsed.flag("--json"), quiet: parsed.flag("--quiet"))
    }

    /// Parses `arguments`, prints help or a usage error, else validates and runs.
    static func main(_ arguments: [String]) -> ExitStatus {
        let parsed: ParsedArguments
        let options: Options
        do {
            parsed = try parsingSpec.parse(arguments)
            if parsed.helpRequested {
                print(try spec.helpText(for: parsed.helpTopic))
                return .success
            }
            options = try validate(parsed)
        } catch {
            Console(json: arguments.contains("--json"), quiet: false).fail(CamrecError(.usage, error.message))
            return .usage
        }
        let console = console(for: parsed)
        do {
            return try run(options, console: console)
        } catch {
            console.fail(error)
            return error.status
        }
    }
}

extension Subcommand {
    /// `camrec help --check-args …`: parses and validates `arguments` exactly as ``main``
    /// does, and runs nothing (no camera, no file written): 0, or 64 with the usage error
    /// on stderr.
    static func check(_ arguments: [String]) -> ExitStatus {
        do {
            let parsed = try parsingSpec.parse(arguments)
            if parsed.helpRequested {
                _ = try spec.helpText(for: parsed.helpTopic)
            } else {
                _ = try validate(parsed)
            }
            return .success
        } catch {
            Console(json: false, quiet: false).fail(CamrecError(.usage, error.message))
            return .usage
        }
    }
}

/// `body`, a CamrecKit rule given the options as they came, with its refusal turned into
/// the usage error it is (exit 64, its message unchanged).
func usage<T, E: Error & CustomStringConvertible>(_ body: () throws(E) -> T) throws(UsageError) -> T {
    do {
        return try body()
    } catch {
        throw UsageError(error.description)
    }
}

import Foundation
import PackagePlugin

/// Writes `SourceRevision.swift` (the git revision camrec is built from) before every build
/// of the target that uses it, with `packaging/stamp-revision`: `git describe` in a clone,
/// the revision `git archive` wrote into `packaging/revision` in a tarball, else "unknown".
/// No network, no build tool beyond the shell; the file is rewritten only when the revision
/// changes, so an unchanged tree recompiles nothing.
@main
struct RevisionStamp: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let output = context.pluginWorkDirectoryURL.appending(path: "Generated")
        let package = context.package.directoryURL
        return [
            .prebuildCommand(
                displayName: "Stamping the source revision into \(target.name)",
                executable: URL(fileURLWithPath: "/bin/sh"),
                arguments: [
                    package.appending(path: "packaging/stamp-revision").path,
                    package.path,
                    output.appending(path: "SourceRevision.swift").path,
                ],
                outputFilesDirectory: output
            )
        ]
    }
}

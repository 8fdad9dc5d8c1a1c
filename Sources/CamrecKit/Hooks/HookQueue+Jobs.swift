// Here rather than in the Hooks module: the hooks' lines are shown as a recording shows them.
extension HookQueue {
    /// `camrec trim` and `export`: runs `settings`' command for each of `files` (no ledger:
    /// the job is over when they end), its `hook` lines on `console`, and waits for them.
    static func runOnce(_ settings: HookSettings, for files: HookedFile..., console: Console) {
        runOnce(settings, for: files, console: console)
    }

    /// See ``runOnce(_:for:console:)``.
    static func runOnce(_ settings: HookSettings, for files: [HookedFile], console: Console) {
        let printer = RecordingPrinter(console: console)
        let hooks = HookQueue(settings: settings, ledgerFor: nil, report: { printer.show($0) }, warn: { printer.show(.warning($0)) })
        for file in files { hooks.enqueue(file) }
        hooks.finish()
    }
}

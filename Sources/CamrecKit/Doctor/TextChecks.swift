/// libtesseract and its language models, which text recognition (`camrec text`) loads when
/// asked for: nothing else needs them, so their absence is worth knowing, not a problem.
enum TextChecks {
    /// What `camrec doctor` says of them. `problem` says why the library cannot be loaded
    /// (nil: it loads), `version` its version and `languages` the models installed (all
    /// injected for tests).
    static func check(problem: () -> String? = { TesseractLibrary.libraryProblem },
                      version: () -> String? = { TesseractLibrary.version },
                      languages: () -> [String] = { TesseractLibrary.installedLanguages()?.languages ?? [] }) -> DoctorCheck {
        let package = TesseractLibrary.package
        var check: DoctorCheck
        if let reason = problem() {
            check = DoctorCheck(.plugin, package, .info, "libtesseract cannot be loaded (\(reason)): camrec text is unavailable",
                                fix: "sudo apt-get install \(package) \(TesseractLibrary.package(of: "eng"))")
        } else {
            let installed = languages()
            let name = "libtesseract" + (version().map { " \($0)" } ?? "")
            if installed.isEmpty {
                check = DoctorCheck(.plugin, package, .warning, "\(name) loads but has no language model: camrec text cannot read",
                                    fix: "sudo apt-get install \(TesseractLibrary.package(of: "eng"))")
            } else {
                check = DoctorCheck(.plugin, package, .ok, "\(name) loads: camrec text reads \(installed.joined(separator: ", "))")
            }
        }
        check.package = package
        return check
    }
}

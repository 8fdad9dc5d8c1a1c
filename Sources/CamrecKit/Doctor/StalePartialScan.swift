/// Unfinished recordings in the output folder (StalePartials: camrec's own
/// `NAME.partial.EXT` files that no process holds open), with the command that recovers them.
enum StalePartialScan {
    /// One warning naming them and the `camrec recover` command, or an ok check when there are none.
    static func check(folder: String) -> DoctorCheck {
        // StalePartials looks beside an OUTPUT and spells paths as that OUTPUT's folder is given.
        let output = folder == "." ? "movie.mp4" : (folder.hasSuffix("/") ? folder : folder + "/") + "movie.mp4"
        let paths = StalePartials.find(besideOutput: output)
        var check: DoctorCheck
        if paths.isEmpty {
            check = DoctorCheck(.partial, "partial files", .ok, "no unfinished recording in \(folder)")
        } else {
            let what = paths.count == 1 ? "an unfinished recording" : "\(paths.count) unfinished recordings"
            check = DoctorCheck(.partial, "partial files", .warning,
                                "\(what) from an earlier camrec (killed, power cut or full disk): \(paths.joined(separator: ", "))",
                                fix: StalePartials.recoverCommand(for: paths))
        }
        check.path = folder
        return check
    }
}

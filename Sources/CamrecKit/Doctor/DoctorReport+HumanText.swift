extension DoctorReport {
    /// The report for people: one line per check, its fix indented under it, then a summary.
    public var humanText: String {
        var lines: [String] = []
        for check in checks {
            let label = check.status == .problem ? "PROBLEM" : check.status.rawValue
            let subject = check.area == .output && check.name == "folder" ? "output folder" : check.name
            lines.append(label.padding(8) + subject + ": " + check.message)
            if let fix = check.fix, check.status >= .warning { lines.append(String(repeating: " ", count: 8) + "fix: " + fix) }
        }
        let counts = counted(problems, "problem") + ", " + counted(warnings, "warning")
        if problems == 0 {
            lines.append("\(counts): camrec has what a recording needs")
        } else {
            lines.append("\(counts): fix the problems above (exit status \(exitStatus.rawValue))")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

extension String {
    /// The string followed by spaces up to `width` characters (at least one space).
    fileprivate func padding(_ width: Int) -> String {
        self + String(repeating: " ", count: Swift.max(1, width - count))
    }
}

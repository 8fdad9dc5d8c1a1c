import CamrecKit

/// The exit-code tables of the help texts.
public enum ExitCodeTable {
    /// The exit-code table shown in help texts: codes right-padded to one column, meanings
    /// in the next (long ones wrap under the meaning, see HelpFormatter.reflow).
    public static var all: String {
        of(ExitStatus.allCases.map { ($0, $0.meaning) })
    }

    /// An exit-code table of `rows`, codes in one column; the help formatter wraps long
    /// meanings under their column.
    public static func of(_ rows: [(status: ExitStatus, meaning: String)]) -> String {
        let width = rows.map { String($0.status.rawValue).count }.max() ?? 3
        return "Exit codes:\n" + rows.map { status, meaning in
            let code = String(status.rawValue)
            return "  " + code + String(repeating: " ", count: width - code.count + 2) + meaning
        }.joined(separator: "\n")
    }
}

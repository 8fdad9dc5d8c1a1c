import FoundationEssentials

/// A human size: "812 KB", "3.4 MB".
public func humanBytes(_ bytes: Int64) -> String {
    let value = Double(bytes)
    if value >= 1e9 { return String(cFormat: "%.2f GB", value / 1e9) }
    if value >= 1e6 { return String(cFormat: "%.1f MB", value / 1e6) }
    return String(cFormat: "%.0f KB", value / 1e3)
}

/// "00:01:05" for 65 seconds.
public func clockTime(_ seconds: Double) -> String {
    let total = Int(seconds.rounded(.down))
    return String(cFormat: "%02ld:%02ld:%02ld", total / 3600, total / 60 % 60, total % 60)
}

/// A limit as a clock time, with milliseconds when it is not whole seconds ("00:00:00.500").
public func limitTime(_ seconds: Double) -> String {
    let milliseconds = Int((seconds * 1000).rounded()) % 1000
    return milliseconds == 0 ? clockTime(seconds) : clockTime(seconds) + String(cFormat: ".%03ld", milliseconds)
}

/// "1 frame", "2 frames".
public func counted(_ count: Int, _ noun: String) -> String {
    "\(count) \(noun)\(count == 1 ? "" : "s")"
}

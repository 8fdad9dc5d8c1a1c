/// The path-name operations camrec used from `NSString` (full Foundation), with the same
/// results for the paths camrec handles: plain string work, no file system access.
public enum PathName {
    /// The last component: `"/a/b.mp4"` → `"b.mp4"`, `"/a/b/"` → `"b"`, `"/"` → `"/"`.
    public static func last(_ path: String) -> String {
        let trimmed = withoutTrailingSlashes(path)
        if trimmed == "/" { return "/" }
        return trimmed.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? ""
    }

    /// The path without its last component: `"/a/b.mp4"` → `"/a"`, `"b.mp4"` → `""`,
    /// `"/b"` → `"/"`.
    public static func deletingLast(_ path: String) -> String {
        let trimmed = withoutTrailingSlashes(path)
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        if slash == trimmed.startIndex { return "/" }
        return withoutTrailingSlashes(String(trimmed[..<slash]))
    }

    /// The extension of the last component, without the dot: `"a/b.mp4"` → `"mp4"`; empty
    /// for `"b"`, `".hidden"` and `"b."`.
    public static func pathExtension(_ path: String) -> String {
        let name = last(path)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return String(name[name.index(after: dot)...])
    }

    /// The path without the last component's extension: `"a/b.mp4"` → `"a/b"`.
    public static func deletingExtension(_ path: String) -> String {
        let ext = pathExtension(path)
        let trimmed = withoutTrailingSlashes(path)
        return ext.isEmpty ? trimmed : String(trimmed.dropLast(ext.count + 1))
    }

    /// `component` under `folder`: `("a", "b")` → `"a/b"`, `("a/", "b")` → `"a/b"`, `("", "b")` → `"b"`.
    public static func appending(_ folder: String, _ component: String) -> String {
        if folder.isEmpty { return component }
        return folder.hasSuffix("/") ? folder + component : folder + "/" + component
    }

    private static func withoutTrailingSlashes(_ path: String) -> String {
        var result = Substring(path)
        while result.count > 1 && result.hasSuffix("/") { result = result.dropLast() }
        return String(result)
    }
}

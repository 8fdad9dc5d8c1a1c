import Foundation

/// GStreamer as a machine without some plugin sees it, for tests of "missing plugin" errors.
enum PluginRegistry {
    /// An environment whose GStreamer loads every system plugin except the `withoutPlugin`
    /// library (e.g. "libgstx264.so"): links to the rest in a folder of `folder`, and a
    /// registry of its own there so the system one is left alone.
    static func environment(withoutPlugin plugin: String, in folder: TemporaryFolder) throws -> [String: String] {
        try environment(withoutPlugins: [plugin], in: folder)
    }

    /// The same without every one of `plugins`.
    static func environment(withoutPlugins hidden: [String], in folder: TemporaryFolder) throws -> [String: String] {
        let plugins = folder.path("plugins")
        try FileManager.default.createDirectory(atPath: plugins, withIntermediateDirectories: false)
        let system = "/usr/lib/x86_64-linux-gnu/gstreamer-1.0"
        for name in try FileManager.default.contentsOfDirectory(atPath: system) where name.hasSuffix(".so") && !hidden.contains(name) {
            try FileManager.default.createSymbolicLink(atPath: plugins + "/" + name, withDestinationPath: system + "/" + name)
        }
        var environment = ProcessInfo.processInfo.environment
        environment["GST_PLUGIN_SYSTEM_PATH_1_0"] = plugins
        environment["GST_PLUGIN_PATH_1_0"] = ""
        environment["GST_REGISTRY_1_0"] = folder.path("registry.bin")
        return environment
    }
}

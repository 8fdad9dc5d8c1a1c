import Foundation
import Testing

/// The Debian package scripts/package builds, and what camrec makes for it from its own
/// help texts (the man page, the completions).
///
/// The package comes from $CAMREC_TEST_PACKAGE: scripts/test builds it (release, static)
/// before `swift test`, because `swift test` holds SwiftPM's lock on .build for its whole
/// run. Without it (`swift test` run by hand) the package is built once, in a build folder
/// of its own (.build/package-scratch: a full release build the first time, minutes).
/// Skipped, with the reason, only where dpkg cannot be used.
enum Packaging {
    static let root = VirtualCameraEnvironment.packageRoot

    struct Failure: Error, CustomStringConvertible { let description: String }

    /// Why dpkg cannot be used here, nil when it can.
    static let unusable: String? = {
        for tool in ["dpkg", "dpkg-deb"] {
            guard let result = try? ChildProcess.run(tool, ["--version"]), result.status == 0 else {
                return "\(tool) cannot run here: the package tests need Debian's dpkg"
            }
        }
        return nil
    }()

    /// The package under test.
    static let deb: Result<String, Failure> = {
        if let given = ProcessInfo.processInfo.environment["CAMREC_TEST_PACKAGE"], !given.isEmpty {
            return FileManager.default.fileExists(atPath: given) ? .success(given) : .failure(Failure(description: "CAMREC_TEST_PACKAGE=\(given) does not exist"))
        }
        FileHandle.standardError.write(Data("PackageTests: no CAMREC_TEST_PACKAGE (scripts/test sets it): building the package in .build/package-scratch\n".utf8))
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("camrec-package-\(getpid())").path
        guard let result = try? ChildProcess.run(root.appendingPathComponent("scripts/package").path,
                                                 ["--fast", "--scratch-path", root.appendingPathComponent(".build/package-scratch").path,
                                                  "--output", output], timeout: 3600),
              result.status == 0, let path = result.stdoutText.split(separator: "\n").last.map(String.init)
        else { return .failure(Failure(description: "scripts/package failed")) }
        return .success(path)
    }()

    /// `dpkg-deb -f DEB FIELD`.
    static func field(_ name: String, of deb: String) throws -> String {
        try ChildProcess.run("dpkg-deb", ["-f", deb, name]).stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Where the Swift toolchain is (the folder holding usr/bin/swift), to hide it.
    static var toolchain: String? {
        guard let found = try? ChildProcess.run("/bin/sh", ["-c", "command -v swift"]), found.status == 0 else { return nil }
        let swift = URL(fileURLWithPath: found.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)).resolvingSymlinksInPath()
        return swift.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    }
}

@Suite(.enabled(if: Packaging.unusable == nil, "\(Packaging.unusable ?? "")"))
struct PackageTests {
    /// camrec's GStreamer plugin (camrecflip, for gst-launch-1.0), in GStreamer's plugin folder.
    static let plugin: String = {
        let arch = (try? ChildProcess.run("dpkg-architecture", ["-qDEB_HOST_MULTIARCH"]).stdoutText) ?? ""
        return "usr/lib/\(arch.trimmingCharacters(in: .whitespacesAndNewlines))/gstreamer-1.0/libgstcamrec.so"
    }()

    /// Everything the package installs, and nothing else.
    static let expectedFiles = [
        "lib/systemd/system/camrec@.service",
        "usr/bin/camrec",
        Self.plugin,
        "usr/share/bash-completion/completions/camrec",
        "usr/share/doc/camrec/changelog.gz",
        "usr/share/doc/camrec/copyright",
        "usr/share/doc/camrec/events.schema.json",
        "usr/share/doc/camrec/examples/camrec-segments",
        "usr/share/doc/camrec/examples/camrec.conf",
        "usr/share/man/man1/camrec.1.gz",
        "usr/share/zsh/vendor-completions/_camrec",
    ]

    @Test func contentsAndDepends() throws {
        let deb = try Packaging.deb.get()
        let listing = try ChildProcess.run("dpkg-deb", ["--fsys-tarfile", deb])
        #expect(listing.status == 0)
        let names = try ChildProcess.run("/bin/sh", ["-c", "dpkg-deb --fsys-tarfile \"$1\" | tar -t", "sh", deb]).stdoutText
            .split(separator: "\n").map { $0.hasPrefix("./") ? String($0.dropFirst(2)) : String($0) }
            .filter { !$0.isEmpty && !$0.hasSuffix("/") }.sorted()
        #expect(names == Self.expectedFiles)
        let version = try CamrecBinary.run(["--version"]).stdoutText.split(separator: " ").dropFirst().first.map(String.init)
        #expect(try Packaging.field("Version", of: deb) == version)
        #expect(try Packaging.field("Package", of: deb) == "camrec")
        let architecture = try ChildProcess.run("dpkg", ["--print-architecture"]).stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try Packaging.field("Architecture", of: deb) == architecture)
        #expect(URL(fileURLWithPath: deb).lastPathComponent == "camrec_\(version ?? "")_\(architecture).deb")
        let depends = try Packaging.field("Depends", of: deb).split(separator: ",").map {
            String($0.split(separator: "(")[0]).trimmingCharacters(in: .whitespaces)
        }
        // gst-rtsp-server is loaded for --serve only, libtesseract for camrec text only:
        // recommended, not required.
        #expect(try Packaging.field("Recommends", of: deb) == "libgstrtspserver-1.0-0, libtesseract5, tesseract-ocr-eng")
        #expect(!depends.contains("libgstrtspserver-1.0-0"), "\(depends)")
        #expect(!depends.contains { $0.contains("tesseract") }, "\(depends)")
        for package in ["libc6", "libglib2.0-0", "libgstreamer1.0-0", "libgstreamer-plugins-base1.0-0",
                        "gstreamer1.0-plugins-base", "gstreamer1.0-plugins-good", "gstreamer1.0-plugins-bad",
                        "gstreamer1.0-plugins-ugly", "gstreamer1.0-libav", "gstreamer1.0-x", "fonts-dejavu-core"] {
            #expect(depends.contains(package), "Depends lacks \(package): \(depends)")
        }
        // Runtime packages only: no -dev package, nothing of the Swift toolchain.
        #expect(!depends.contains { $0.hasSuffix("-dev") || $0.contains("swift") }, "\(depends)")
        // Every Depends is a package installed here (the install test relies on it).
        for package in depends {
            #expect(try ChildProcess.run("dpkg-query", ["-W", package]).status == 0, "\(package) is not installed")
        }
    }

    @Test func installsRecordsWithoutTheToolchainAndRemovesCleanly() throws {
        let deb = try Packaging.deb.get()
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let root = folder.path("root")
        try makeDpkgDatabase(root, satisfying: deb)
        let install = try ChildProcess.run("dpkg", ["--root=\(root)", "--install", deb], timeout: 120)
        #expect(install.status == 0, "\(install.stdoutText)\(install.stderr)")
        for file in Self.expectedFiles {
            #expect(FileManager.default.fileExists(atPath: root + "/" + file), "\(file) not installed")
        }
        let camrec = root + "/usr/bin/camrec"

        // Self-contained: only system libraries, no library search path.
        let ldd = try ChildProcess.run("ldd", [camrec]).stdoutText
        #expect(!ldd.contains("swift") && !ldd.contains("Foundation") && !ldd.contains("not found"), "\(ldd)")
        #expect(try !ChildProcess.run("readelf", ["-d", camrec]).stdoutText.contains("RUNPATH"))

        // The plugin loads in gst-launch-1.0's GStreamer and runs a printed pipeline's camrecflip
        // (a registry of its own, so that the user's is not touched).
        let plugin = URL(fileURLWithPath: root + "/" + Self.plugin)
        let dynamic = try ChildProcess.run("readelf", ["-d", plugin.path]).stdoutText
        #expect(!dynamic.contains("swift") && !dynamic.contains("RUNPATH") && !dynamic.contains("RPATH"), "\(dynamic)")
        var environment = ProcessInfo.processInfo.environment
        environment["GST_PLUGIN_PATH"] = plugin.deletingLastPathComponent().path
        environment["GST_REGISTRY"] = folder.path("registry.bin")
        let launched = try ChildProcess.run("gst-launch-1.0", ["-q", "videotestsrc", "num-buffers=2", "!", "video/x-raw,format=I420,width=64,height=48",
                                                               "!", "camrecflip", "method=90r", "!", "video/x-raw,width=48,height=64", "!", "fakesink"],
                                            environment: environment, timeout: 60)
        #expect(launched.status == 0, "\(launched.stderr)")

        // Records the test pattern with the Swift toolchain hidden (an empty folder over it).
        let movie = folder.path("installed.mp4")
        let toolchain = try #require(Packaging.toolchain, "no Swift toolchain found to hide")
        let script = "mount -t tmpfs camrec-test \"$1\" && [ -z \"$(ls -A \"$1\")\" ] && shift && exec \"$@\""
        let arguments = ["-m", "/bin/sh", "-c", script, "sh", toolchain, camrec,
                         "--device", "test", "--size", "320x240", "--max-duration", "1", "--json", movie]
        let recorded = try ChildProcess.run("unshare", arguments, timeout: 120)
        JSONLog.record(arguments: Array(arguments.dropFirst(7)), stdout: recorded.stdout)
        #expect(recorded.status == 0, "\(recorded.stderr)")
        let result = try #require(JSONLines.parse(recorded).last)
        #expect(result["type"] as? String == "result" && result["reason"] as? String == "max-duration", "\(result)")
        let probe = try MediaProbe.probe(movie)
        #expect(probe.codec == "h264" && probe.frames == 30 && probe.width == 320)
        // Not an accident of the environment: the toolchain's own build needs what was hidden.
        let debugBinary = try ChildProcess.run("unshare", ["-m", "/bin/sh", "-c", script, "sh", toolchain, CamrecBinary.url.path, "--version"])
        #expect(debugBinary.status != 0, "the debug build ran without the toolchain: hiding it did not work")
        let version = try ChildProcess.run(camrec, ["--version"]).stdoutText
        #expect(version.hasPrefix("camrec ") && version.contains("(revision ") && version.contains("\nGStreamer 1."), "\(version)")

        // The man page renders without a warning; the completions load.
        let man = try ChildProcess.run("man", ["--warnings", "-l", root + "/usr/share/man/man1/camrec.1.gz"],
                                       environment: ["MANWIDTH": "80", "PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8"])
        #expect(man.status == 0 && man.stderr.isEmpty, "\(man.stderr)")
        #expect(man.stdoutText.contains("camrec doctor"))
        let bash = try ChildProcess.run("bash", ["-c", "source \"$1\" && complete -p camrec", "bash",
                                                 root + "/usr/share/bash-completion/completions/camrec"])
        #expect(bash.stdoutText.contains("-F _camrec camrec"), "\(bash.stderr)")

        // The unit: no warning from systemd-analyze, and a sandbox systemd rates safe.
        try verifyUnit(installedIn: root, folder: folder)

        // Remove, then purge: nothing of camrec is left, only dpkg's own database.
        let remove = try ChildProcess.run("dpkg", ["--root=\(root)", "--remove", "camrec"])
        #expect(remove.status == 0, "\(remove.stderr)")
        let purge = try ChildProcess.run("dpkg", ["--root=\(root)", "--purge", "camrec"])
        #expect(purge.status == 0, "\(purge.stderr)")
        let left = try FileManager.default.subpathsOfDirectory(atPath: root).filter { !$0.hasPrefix("var") && !$0.isEmpty }
        #expect(left.isEmpty, "left behind: \(left)")
        let status = try ChildProcess.run("dpkg", ["--root=\(root)", "--status", "camrec"])
        #expect(status.status != 0 || !status.stdoutText.contains("install ok installed"))
    }

    /// A dpkg database in `root` where the packages the .deb depends on are recorded as
    /// installed (the host's own entries, with no files), so that dpkg checks the Depends
    /// line against the versions this machine has instead of being forced past it.
    func makeDpkgDatabase(_ root: String, satisfying deb: String) throws {
        let database = root + "/var/lib/dpkg"
        for sub in ["info", "updates", "triggers"] {
            try FileManager.default.createDirectory(atPath: database + "/" + sub, withIntermediateDirectories: true)
        }
        FileManager.default.createFile(atPath: database + "/available", contents: Data())
        var status = ""
        for entry in try Packaging.field("Depends", of: deb).split(separator: ",") {
            let name = String(entry.split(separator: "(")[0]).trimmingCharacters(in: .whitespaces)
            let query = try ChildProcess.run("dpkg-query", ["--status", name])
            try #require(query.status == 0, "\(name) is not installed here")
            status += query.stdoutText.trimmingCharacters(in: .newlines) + "\n\n"
            let listName = try ChildProcess.run("dpkg-query", ["-W", "-f", "${binary:Package}", name]).stdoutText
            FileManager.default.createFile(atPath: database + "/info/\(listName).list", contents: Data())
        }
        try status.write(toFile: database + "/status", atomically: true, encoding: .utf8)
    }

    /// systemd-analyze verify and security on camrec@test.service, offline, in a copy of the
    /// installed files beside the host's own units (verify needs sysinit.target and friends).
    func verifyUnit(installedIn root: String, folder: TemporaryFolder) throws {
        guard let which = try? ChildProcess.run("/bin/sh", ["-c", "command -v systemd-analyze"]), which.status == 0 else {
            print("PackageTests: systemd-analyze is not installed: the unit was not verified")
            return
        }
        let system = folder.path("system")
        let fm = FileManager.default
        try fm.createDirectory(atPath: system + "/usr/lib/systemd", withIntermediateDirectories: true)
        try fm.createDirectory(atPath: system + "/lib/systemd/system", withIntermediateDirectories: true)
        try fm.createDirectory(atPath: system + "/usr/bin", withIntermediateDirectories: true)
        try fm.createDirectory(atPath: system + "/etc/camrec", withIntermediateDirectories: true)
        let copy = try ChildProcess.run("cp", ["-r", "/lib/systemd/system", system + "/usr/lib/systemd/"])
        #expect(copy.status == 0, "\(copy.stderr)")
        try fm.copyItem(atPath: root + "/lib/systemd/system/camrec@.service", toPath: system + "/lib/systemd/system/camrec@.service")
        try fm.copyItem(atPath: root + "/usr/bin/camrec", toPath: system + "/usr/bin/camrec")
        try fm.copyItem(atPath: root + "/usr/share/doc/camrec/examples/camrec.conf", toPath: system + "/etc/camrec/test.conf")
        let verify = try ChildProcess.run("systemd-analyze", ["verify", "--man=no", "--root=\(system)", "camrec@test.service"])
        #expect(verify.status == 0 && verify.stderr.isEmpty && verify.stdoutText.isEmpty, "\(verify.stdoutText)\(verify.stderr)")
        // Exposure 2.0 at most ("OK"; it is about 0.8, "SAFE").
        let security = try ChildProcess.run("systemd-analyze", ["security", "--offline=yes", "--root=\(system)", "--threshold=20", "camrec@test.service"])
        #expect(security.status == 0, "\(security.stdoutText.split(separator: "\n").last ?? "")")
    }

    @Test func lintianReportsNoErrors() throws {
        let deb = try Packaging.deb.get()
        guard let which = try? ChildProcess.run("/bin/sh", ["-c", "command -v lintian"]), which.status == 0 else {
            print("PackageTests: lintian is not installed (scripts/deps installs it): not run")
            return
        }
        let lintian = try ChildProcess.run("lintian", ["--allow-root", "--fail-on", "error", "--tag-display-limit", "0", deb], timeout: 300)
        #expect(lintian.status == 0, "\(lintian.stdoutText)\(lintian.stderr)")
        #expect(!lintian.stdoutText.split(separator: "\n").contains { $0.hasPrefix("E:") }, "\(lintian.stdoutText)")
    }

    /// scripts/package twice on the same binary: the same files, contents, modes, owners,
    /// times and control fields (the times are the commit's: SOURCE_DATE_EPOCH).
    @Test func packagingIsRepeatable() throws {
        let deb = try Packaging.deb.get()
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let extracted = folder.path("x")
        #expect(try ChildProcess.run("dpkg-deb", ["-x", deb, extracted]).status == 0)
        func package(_ name: String) throws -> String {
            let made = try ChildProcess.run(Packaging.root.appendingPathComponent("scripts/package").path,
                                            ["--fast", "--binary", extracted + "/usr/bin/camrec", "--plugin", extracted + "/" + PackageTests.plugin,
                                             "--output", folder.path(name)], timeout: 600)
            #expect(made.status == 0, "\(made.stderr)")
            return try #require(made.stdoutText.split(separator: "\n").last.map(String.init))
        }
        func describe(_ deb: String) throws -> String {
            let listing = try ChildProcess.run("dpkg-deb", ["--contents", deb]).stdoutText
            let sums = try ChildProcess.run("/bin/sh", ["-c", "dpkg-deb --ctrl-tarfile \"$1\" | tar -xO ./md5sums", "sh", deb]).stdoutText
            return listing + sums + (try ChildProcess.run("dpkg-deb", ["-f", deb]).stdoutText)
        }
        let first = try package("first"), second = try package("second")
        #expect(try describe(first) == describe(second))
        // The binary is the one given, stripped again to the same bytes.
        let sums = try ChildProcess.run("/bin/sh", ["-c", "dpkg-deb --ctrl-tarfile \"$1\" | tar -xO ./md5sums", "sh", deb]).stdoutText
        #expect(try describe(first).contains(sums.split(separator: "\n").first { $0.hasSuffix("usr/bin/camrec") }.map(String.init) ?? "?"))
        #expect(try describe(first).contains(sums.split(separator: "\n").first { $0.hasSuffix("libgstcamrec.so") }.map(String.init) ?? "?"))
    }
}

/// What camrec writes for the package from its own help texts, checked on the debug build.
@Suite struct GeneratedDocsTests {
    func helpOptions(_ subcommand: [String]) throws -> [String] {
        let help = try CamrecBinary.run(subcommand + ["--help"]).stdoutText
        let options = help.components(separatedBy: "OPTIONS:").last ?? ""
        return options.split(separator: "\n").compactMap { line in
            let trimmed = line.drop { $0 == " " }
            guard line.hasPrefix("  "), trimmed.hasPrefix("-") else { return nil }
            return trimmed.split(separator: " ").first.map { String($0).trimmingCharacters(in: [","]) }
        }
    }

    @Test func theManPageHasEveryOptionOfEverySubcommandsHelp() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let generated = try CamrecBinary.run(["help", "--man"])
        #expect(generated.status == 0, "\(generated.stderr)")
        let page = folder.path("camrec.1")
        try generated.stdout.write(to: URL(fileURLWithPath: page))
        let man = try ChildProcess.run("man", ["--warnings", "-l", page], environment: ["MANWIDTH": "80", "PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8"])
        #expect(man.status == 0 && man.stderr.isEmpty, "\(man.stderr)")
        let text = man.stdoutText
        for subcommand in [[], ["devices"], ["still"], ["preview"], ["ctl"], ["trim"], ["doctor"], ["encoders"]] {
            let options = try helpOptions(subcommand)
            #expect(!options.isEmpty)
            for option in options {
                #expect(text.contains(option), "camrec \(subcommand.joined()) \(option) is not in the man page")
            }
            // The abstract is there (its first words as a sample).
            let help = try CamrecBinary.run(subcommand + ["--help"]).stdoutText
            let abstract = help.components(separatedBy: "\n\n").first ?? ""
            let start = abstract.split(separator: " ").prefix(4).joined(separator: " ")
            #expect(!start.isEmpty && text.contains(start), "\(abstract)")
        }
        for section in ["NAME", "SYNOPSIS", "DESCRIPTION", "COMMANDS", "EXIT STATUS", "ENVIRONMENT", "FILES", "SEE ALSO"] {
            #expect(text.contains("\n" + section + "\n"), "no \(section) section")
        }
        #expect(try CamrecBinary.run(["help", "--completion", "fish"]).status == 64)
    }

    /// Completes `words` (the last one being completed) with the generated bash script.
    func complete(_ words: [String], environment: [String: String]? = nil) throws -> [String] {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let script = folder.path("camrec.bash")
        try CamrecBinary.run(["help", "--completion", "bash"]).stdout.write(to: URL(fileURLWithPath: script))
        let quoted = words.map { "'" + $0 + "'" }.joined(separator: " ")
        // In an empty folder: positional arguments complete file names too.
        let code = """
            cd "$2" && source "$1" || exit 9
            COMP_WORDS=(\(quoted)); COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
            _camrec; printf '%s\\n' "${COMPREPLY[@]}"
            """
        var env = environment ?? ProcessInfo.processInfo.environment
        env["PATH"] = CamrecBinary.url.deletingLastPathComponent().path + ":" + (env["PATH"] ?? "/usr/bin:/bin")
        let empty = folder.path("empty")
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: false)
        let result = try ChildProcess.run("bash", ["-c", code, "bash", script, empty], environment: env)
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdoutText.split(separator: "\n").map(String.init)
    }

    @Test func bashCompletesSubcommandsOptionsValuesAndCameras() throws {
        #expect(try complete(["camrec", "tr"]) == ["trim"])
        #expect(try complete(["camrec", "do"]) == ["doctor"])
        #expect(try complete(["camrec", "en"]) == ["encoders"])
        #expect(try complete(["camrec", "encoders", "--"]) == ["--json", "--no-trial", "--help"])
        #expect(try complete(["camrec", "trim", "--mo"]) == ["--mode"])
        #expect(try complete(["camrec", "trim", "--mode", ""]) == ["accurate", "keyframe", "reencode"])
        #expect(try complete(["camrec", "trim", "--mode", "=", "k"]) == ["keyframe"])
        #expect(try complete(["camrec", "--still-format", ""]) == ["jpeg", "png"])
        // Issue 29 item 14: the values of --codec, --quality, --layout and --audio.
        #expect(try complete(["camrec", "--codec", ""]) == ["auto", "copy", "h264", "h265", "mjpeg"])
        #expect(try complete(["camrec", "--quality", ""]) == ["low", "medium", "high", "max"])
        #expect(try complete(["camrec", "--layout", "s"]) == ["stacked", "side-by-side"])
        #expect(try complete(["camrec", "--audio", ""]) == ["default", "camera", "test", "file", "none"])
        #expect(try complete(["camrec", "ctl", "/tmp/s", "st"]) == ["still", "stop", "status"])
        #expect(try complete(["camrec", "help", ""]).contains("doctor"))
        #expect(try complete(["camrec", "--max-duration", ""]).isEmpty)
        #expect(try complete(["camrec", "doctor", "--se"]) == ["--segment"])
        let camera = try VirtualCameraEnvironment.shared().environment(spec: "/dev/video0;/dev/video3")
        #expect(try complete(["camrec", "--device", ""], environment: camera) == ["test", "/dev/video0", "/dev/video3"])
        #expect(try complete(["camrec", "still", "-d", "/dev/video3"], environment: camera) == ["/dev/video3"])
    }

    @Test func theZshCompletionParses() throws {
        guard let zsh = try? ChildProcess.run("/bin/sh", ["-c", "command -v zsh"]), zsh.status == 0 else {
            print("GeneratedDocsTests: zsh is not installed (scripts/deps installs it): the zsh completion was not checked")
            return
        }
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let script = folder.path("_camrec")
        try CamrecBinary.run(["help", "--completion", "zsh"]).stdout.write(to: URL(fileURLWithPath: script))
        let parse = try ChildProcess.run("zsh", ["-n", script])
        #expect(parse.status == 0, "\(parse.stderr)")
        // Loaded into a shell with the completion system, it defines its functions.
        let load = try ChildProcess.run("zsh", ["-f", "-c", "autoload -Uz compinit && compinit -u -D && source \"$1\" 2>/dev/null; whence -w _camrec _camrec_devices", "zsh", script])
        #expect(load.stdoutText.contains("_camrec: function") && load.stdoutText.contains("_camrec_devices: function"), "\(load.stdoutText)\(load.stderr)")
    }

    @Test func theExampleScriptActsOnEachSegment() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var env = ProcessInfo.processInfo.environment
        env["PATH"] = CamrecBinary.url.deletingLastPathComponent().path + ":" + (env["PATH"] ?? "/usr/bin:/bin")
        let script = Packaging.root.appendingPathComponent("packaging/examples/camrec-segments").path
        let movies = folder.path("movies")
        let result = try ChildProcess.run(script, [movies, "--device", "test", "--size", "320x240", "--segment", "1", "--max-duration", "2"],
                                          environment: env, timeout: 120)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdoutText.split(separator: "\n")
        #expect(lines.count == 2 && lines[0].hasPrefix("movie 1: ") && lines[1].hasPrefix("movie 2: "), "\(result.stdoutText)")
        #expect(result.stderr.contains("recording test") && result.stderr.contains("stopped (max-duration): 2 movies"), "\(result.stderr)")
        let sums = try FileManager.default.contentsOfDirectory(atPath: movies).filter { $0.hasSuffix(".sha256") }
        #expect(sums.count == 2)
        let verify = try ChildProcess.run("/bin/sh", ["-c", "cd \"$1\" && sha256sum -c *.sha256", "sh", movies])
        #expect(verify.status == 0, "\(verify.stdoutText)\(verify.stderr)")
        // camrec's exit status comes through: a usage error is 64.
        let failing = try ChildProcess.run(script, [movies, "--fps", "fast"], environment: env)
        #expect(failing.status == 64, "\(failing.stderr)")
    }

    @Test func theVersionNamesTheRevisionAndGStreamer() throws {
        let version = try CamrecBinary.run(["--version"])
        let lines = version.stdoutText.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(version.stdoutText)")
        let gst = try ChildProcess.run("gst-inspect-1.0", ["--version"]).stdoutText
        let library = gst.split(separator: "\n").first { $0.hasPrefix("GStreamer ") }.map(String.init)
        #expect(lines.last == library, "\(lines) vs \(gst)")
        // The revision is a commit of this repository that HEAD descends from (the binary may
        // have been built a commit or two ago), with -dirty when the tree had changes.
        let first = lines.first ?? ""
        let revision = try #require(first.components(separatedBy: "(revision ").last?.split(separator: ")").first.map(String.init))
        let inGit = try ChildProcess.run("git", ["-C", Packaging.root.path, "rev-parse", "--is-inside-work-tree"])
        if inGit.status == 0 {
            let commit = revision.replacingOccurrences(of: "-dirty", with: "")
            let ancestor = try ChildProcess.run("git", ["-C", Packaging.root.path, "merge-base", "--is-ancestor", commit, "HEAD"])
            #expect(commit.count >= 12 && ancestor.status == 0, "\(first): \(ancestor.stderr)")
        } else {
            #expect(revision == "unknown" || !revision.isEmpty)
        }
        #expect(try CamrecBinary.run(["record", "--version"]).stdoutText == version.stdoutText)
    }

    /// packaging/stamp-revision in a tarball: the commit `git archive` wrote, an override, or "unknown".
    @Test func aBuildWithoutGitStillKnowsItsRevisionOrSaysUnknown() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let stamp = Packaging.root.appendingPathComponent("packaging/stamp-revision").path
        let tree = folder.path("camrec-0.1.0")
        try FileManager.default.createDirectory(atPath: tree + "/packaging", withIntermediateDirectories: true)
        func stamped(_ revisionFile: String?, environment: [String: String] = ["PATH": "/usr/bin:/bin"]) throws -> String {
            let file = tree + "/packaging/revision"
            try? FileManager.default.removeItem(atPath: file)
            if let revisionFile { try revisionFile.write(toFile: file, atomically: true, encoding: .utf8) }
            let output = folder.path("SourceRevision.swift")
            let result = try ChildProcess.run("/bin/sh", [stamp, tree, output], environment: environment)
            #expect(result.status == 0, "\(result.stderr)")
            return try String(contentsOfFile: output, encoding: .utf8)
        }
        #expect(try stamped("0123456789abcdef0123456789abcdef01234567\n").contains("let sourceRevision = \"0123456789abcdef0123456789abcdef01234567\""))
        #expect(try stamped("$Format:%H$\n").contains("let sourceRevision = \"unknown\""))
        #expect(try stamped(nil, environment: ["PATH": "/usr/bin:/bin", "CAMREC_SOURCE_REVISION": "debian/0.1.0-1"]).contains("\"debian/0.1.0-1\""))
        // git archive fills packaging/revision in (export-subst in .gitattributes).
        let archived = try ChildProcess.run("/bin/sh", ["-c", "git -C \"$1\" archive HEAD packaging/revision | tar -xO", "sh", Packaging.root.path])
        if archived.status == 0 {
            let head = try ChildProcess.run("git", ["-C", Packaging.root.path, "rev-parse", "HEAD"]).stdoutText
            #expect(archived.stdoutText == head, "\(archived.stdoutText) vs \(head)")
        }
    }
}

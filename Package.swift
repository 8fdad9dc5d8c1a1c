// swift-tools-version:6.0
import PackageDescription

// camrec has no Swift package dependencies: everything it needs is the toolchain
// and the Debian system libraries that `scripts/setup` installs.
let package = Package(
    name: "camrec",
    products: [
        .executable(name: "camrec", targets: ["camrec"]),
        .library(name: "CamrecKit", targets: ["CamrecKit"]),
        // The emulated V4L2 camera, loaded with LD_PRELOAD by tests, benchmarks and demos.
        .library(name: "VirtualCamera", type: .dynamic, targets: ["VirtualCamera"]),
        // camrec's own GStreamer elements as a plugin, libgstcamrec.so, so that a pipeline
        // `camrec --print-pipeline` shows runs in gst-launch-1.0 (GST_PLUGIN_PATH); camrec itself
        // has them built in. The Debian package installs it in GStreamer's plugin folder.
        .library(name: "gstcamrec", type: .dynamic, targets: ["GstCamrecPlugin"]),
    ],
    targets: [
        .systemLibrary(
            name: "CGStreamer",
            pkgConfig: "gstreamer-app-1.0",
            providers: [.apt(["libgstreamer1.0-dev", "libgstreamer-plugins-base1.0-dev"])]
        ),
        .target(name: "CGStreamerShim", dependencies: ["CGStreamer"]),
        // camrec's small C owner of one gst-rtsp-server server with one shared, appsrc-fed
        // mount (`camrec --serve`). Compiled against gst-rtsp-server's headers
        // (libgstrtspserver-1.0-dev, in GStreamer's include folder) but not linked with it:
        // it loads libgstrtspserver-1.0.so.0 when a server is first made, so that a camrec
        // that serves nothing does not carry the library and what it brings (GIO & co.).
        .target(name: "CRTSPServerShim", dependencies: ["CGStreamer"],
                linkerSettings: [.linkedLibrary("gstapp-1.0")]),
        // camrec's small C owner of Tesseract's C API (text recognition). Not linked with
        // libtesseract and compiled without its headers: it loads libtesseract.so.5 when text
        // is first asked for, so that camrec runs where Tesseract is not installed.
        .target(name: "CTesseractShim", linkerSettings: [.linkedLibrary("dl")]),
        // camrec's own elements in C (camrecflip: a faster videoflip for I420), registered by
        // CamrecKit (BuiltInElements) right after gst_init; the bindings know nothing of them.
        // gstvideo is named for the plugin library; camrec links it already (CGStreamer's
        // module map).
        .target(name: "CamrecElements", dependencies: ["CGStreamer"],
                linkerSettings: [.linkedLibrary("gstvideo-1.0"), .linkedLibrary("gstbase-1.0")]),
        .target(name: "GStreamer", dependencies: ["CGStreamer", "CGStreamerShim"]),
        // libgstcamrec.so's entry point (GST_PLUGIN_DEFINE). The plugin is C only: linked without
        // Swift's start-up object (-nostartfiles) and against the static Swift runtime, of which
        // it then takes nothing, it needs no libswiftCore.so and has no search path into the
        // toolchain, so it loads where no Swift is installed. camrec does not link this target.
        .target(name: "GstCamrecPlugin", dependencies: ["CamrecElements"],
                linkerSettings: [.unsafeFlags(["-nostartfiles", "-static-stdlib"])]),
        // The value types, in one module below everything that uses them: frame sizes and
        // rates, bit rates and byte counts (with their parsing and ValueError), shared by V4L2
        // (what a camera offers) and CamrecKit (what a user asks for); times and durations
        // (TimeSpec, MaxDuration, WallTime), rectangles, places, paths and sizes for people
        // (PixelRect, GeoLocation, PathName, HumanText), containers, camrec's version.
        .target(name: "MediaValues"),
        .target(name: "CV4L2"),
        // A file's birth time (statx), which Swift's Glibc module does not import: when a
        // partial movie killed before its first header was created, for `camrec recover`.
        .target(name: "CFileTimes"),
        // Starting a command in a process group of its own, with no camrec descriptor and
        // default signals, and a descriptor that says when it ended: `--on-file` hooks.
        .target(name: "CProcess"),
        // A timerfd on the wall clock that ends when the clock is set: `--schedule`'s waits.
        .target(name: "CWallTimer"),
        .target(name: "V4L2", dependencies: ["CV4L2", "MediaValues"]),
        // Reads and writes plain MP4/QuickTime sample tables: trim's stream copy.
        .target(name: "MP4"),
        // Reads (and writes the primitives of) EBML and Matroska: element headers, IDs, a
        // windowed walk over a file's elements. Files, Recover and Trim read Matroska with it.
        // MP4 only for its positional file reader (SampleFile).
        .target(name: "Matroska", dependencies: ["MP4"]),
        // What every feature stands on: errors and exit codes (with option values' refusals),
        // threads and signals, frame-rate decimation, and the files (names, publication,
        // retention, Matroska and MP4 heads). A module of its own so that the
        // feature modules below the recording (Trim, Recover, Stills, Library, Text, Hooks,
        // Picture) can use it without the recording.
        .target(name: "CamrecCore", dependencies: ["GStreamer", "CamrecElements", "MediaValues", "MP4", "Matroska"]),
        // `camrec recover`: finishes unfinalised movies. Its own module: it needs the files,
        // not the recording, and the recording (StalePartials, doctor) uses it.
        .target(name: "Recover", dependencies: ["CamrecCore", "CFileTimes", "MediaValues", "MP4", "Matroska"]),
        // `camrec trim`: the smart cut and stream copy, a third of the code. Its own module:
        // it needs the files and GStreamer, not the recording, and compiles apart from it.
        .target(name: "Trim", dependencies: ["CamrecCore", "GStreamer", "MediaValues", "MP4", "Matroska"]),
        // Stills' formats, names, settings and codecs (StillEncoder, StillDecoder), apart from a
        // recording: the recording takes stills with them and the library makes sheets and
        // thumbnails with them, so they sit below both.
        .target(name: "Stills", dependencies: ["CamrecCore", "GStreamer", "MediaValues"]),
        // What was recorded, read back: a folder's movies, clips and stills grouped into series
        // (`camrec ls`), their contact sheets and thumbnails (`sheet`) and export's plan. Its own
        // module: it reads files, and needs neither the recording nor the jobs that print it.
        .target(name: "Library", dependencies: ["CamrecCore", "Recover", "Stills", "GStreamer", "MediaValues", "MP4", "Matroska"]),
        // Text recognition with Tesseract (loaded when first asked for: CTesseractShim), the
        // requests and results of `camrec text`, `still --text` and `--text-every`. Its own
        // module: it reads pictures, and needs neither the recording nor its frames' timing.
        .target(name: "Text", dependencies: ["CamrecCore", "Stills", "MediaValues", "CTesseractShim"]),
        // `--on-file` and `--on-event` commands: their queue, processes, ledger and settings, and
        // the files and events they run for as plain values. Its own module: the recording,
        // trim and export feed it, and it knows none of them.
        .target(name: "Hooks", dependencies: ["CamrecCore", "MediaValues", "CProcess"]),
        // What is done to the picture (--rotate, --flip, privacy masks, overlaid text, images
        // and the clock) as settings and pipeline fragments, and the overlay clock's probe. Its
        // own module: the recording, stills and the live view build on it; it builds on none.
        .target(name: "Picture", dependencies: ["CamrecCore", "GStreamer", "MediaValues"]),
        // The recording and what needs it (cameras, sound, encoding, live view, control, doctor,
        // the console and jobs, taking stills and reading text from a running pipeline);
        // re-exports CamrecCore, Recover, Trim, Stills, Library, Text, Hooks and Picture for
        // the command line (Exports.swift).
        .target(
            name: "CamrecKit",
            dependencies: ["CamrecCore", "Recover", "Trim", "Stills", "Library", "Text", "Hooks", "Picture", "MP4", "GStreamer", "V4L2", "MediaValues", "CRTSPServerShim", "CTesseractShim", "CProcess", "CWallTimer"],
            // Sources/CamrecKit/Pipelines links to the top-level pipelines/ folder: the
            // templates are compiled in, so an installed binary needs no data files.
            resources: [.embedInCode("Pipelines")]
        ),
        // A small command-line parser of our own (no swift-argument-parser here).
        .target(name: "ArgumentParsing"),
        // camrec's command line as data: every subcommand's options, arguments and help (its
        // CommandSpec), the subcommands' catalog, and what is written from them (the help
        // topics, camrec(1), the completions, docs/cli.md). No behaviour: the camrec target
        // turns parsed arguments into CamrecKit's requests and runs them.
        .target(name: "CamrecCLI", dependencies: ["ArgumentParsing", "CamrecKit"]),
        // RevisionStamp compiles in the git revision camrec is built from (`camrec --version`).
        .executableTarget(name: "camrec", dependencies: ["CamrecCLI", "CamrecKit", "ArgumentParsing"], plugins: ["RevisionStamp"]),
        .plugin(name: "RevisionStamp", capability: .buildTool()),
        .target(
            name: "VirtualCamera",
            linkerSettings: [
                .linkedLibrary("dl"), .linkedLibrary("pthread"),
                .linkedLibrary("turbojpeg"), .linkedLibrary("x264"),
            ]
        ),
        // CamrecFlipTests registers camrecflip itself, as CamrecKit does.
        // What every test target shares (the one `Wait`).
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "GStreamerTests", dependencies: ["GStreamer", "CamrecElements", "TestSupport"]),
        .testTarget(name: "CamrecKitTests", dependencies: ["CamrecKit", "CamrecCore", "MediaValues", "Recover", "Trim", "Stills", "Library", "Text", "Hooks", "Picture", "MP4", "V4L2", "Matroska", "TestSupport"]),
        // V4L2 probing and format choice, and CamrecKit's listing of what they find (camrec devices).
        .testTarget(name: "V4L2Tests", dependencies: ["V4L2", "MediaValues", "CamrecKit"]),
        .testTarget(name: "MediaValuesTests", dependencies: ["MediaValues"]),
        .testTarget(name: "MP4Tests", dependencies: ["MP4"]),
        .testTarget(name: "MatroskaTests", dependencies: ["Matroska", "MP4"]),
        .testTarget(name: "ArgumentParsingTests", dependencies: ["ArgumentParsing"]),
        // The command line's specs and help, in-process (the end-to-end tests run the binary).
        .testTarget(name: "CamrecCLITests", dependencies: ["CamrecCLI", "ArgumentParsing", "CamrecKit"]),
        // End-to-end tests run the built `camrec` binary (and the VirtualCamera) as a user would.
        .testTarget(name: "CamrecTests", dependencies: ["CamrecKit", "TestSupport"]),
    ]
)

// The release build links the Swift runtime and Foundation statically, as
// `swift build --static-swift-stdlib` does, so that `swift build -c release` (scripts/setup,
// scripts/package, bench/run) makes a camrec that runs where no Swift toolchain is installed:
// `ldd` lists only system libraries (GStreamer, GLib, libc, libstdc++). Every Swift module is
// compiled against the static runtime's modules (their link entries name the static
// libraries), and the executable is linked with them. The debug build, which the tests use,
// is unchanged.
let staticRelease = BuildSettingCondition.when(configuration: .release)
// This manifest's folder, with a trailing slash, for paths handed to the linker.
let packageDirectory = String(#filePath.dropLast("Package.swift".count))
for target in package.targets where target.type == .regular || target.type == .executable {
    // Every function in a section of its own (swiftc puts only public ones apart by default), so
    // that the linker can place them by packaging/link-order.txt (below) and drop unused ones.
    target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-static-stdlib", "-Xfrontend", "-function-sections"], staticRelease)]
    if target.type == .executable {
        // lld (shipped with the toolchain) with packed relative relocations (DT_RELR, glibc ≥ 2.36,
        // Debian 12's): the position-independent executable's relocation table shrinks from
        // 0.94 MB, which the dynamic loader reads whole at every start, to a few KB, and its
        // pages no longer stay resident (issue 14 point 5: 1.5 MB less RSS per camrec process).
        // The code a recording runs first, packed together at the start of .text in the order of
        // packaging/link-order.txt (bench/tools/link-order makes it): the kernel maps an executable's
        // pages 64 KB at a time around each one touched, so code scattered over the 12.6 MB of text
        // kept 8–9 MB of it resident (issue 37 item 1). Names the file no longer matches (changed
        // code) are skipped without a warning: a stale list costs memory, never correctness.
        // No --export-dynamic (which the static Swift runtime's link line asks for): nothing looks
        // camrec's own symbols up at run time, and its 12,000 exported names kept 0.8 MB of
        // .dynsym and .dynstr resident, read by the dynamic loader at every start.
        target.linkerSettings = (target.linkerSettings ?? []) + [.unsafeFlags(
            ["-static-stdlib", "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
             "-Xlinker", "--no-export-dynamic",
             "-Xlinker", "--symbol-ordering-file=\(packageDirectory)packaging/link-order.txt",
             "-Xlinker", "--no-warn-symbol-ordering"], staticRelease)]
    }
}

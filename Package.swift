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
    ],
    targets: [
        .systemLibrary(
            name: "CGStreamer",
            pkgConfig: "gstreamer-app-1.0",
            providers: [.apt(["libgstreamer1.0-dev", "libgstreamer-plugins-base1.0-dev"])]
        ),
        .target(name: "CGStreamerShim", dependencies: ["CGStreamer"]),
        .target(name: "GStreamer", dependencies: ["CGStreamer", "CGStreamerShim"]),
        // One frame size and one frame rate type (with their parsing and ValueError), shared
        // by V4L2 (what a camera offers) and CamrecKit (what a user asks for).
        .target(name: "MediaValues"),
        .target(name: "CV4L2"),
        .target(name: "V4L2", dependencies: ["CV4L2", "MediaValues"]),
        // Reads and writes plain MP4/QuickTime sample tables: trim's stream copy.
        .target(name: "MP4"),
        .target(
            name: "CamrecKit",
            dependencies: ["GStreamer", "V4L2", "MP4", "MediaValues"],
            // Sources/CamrecKit/Pipelines links to the top-level pipelines/ folder: the
            // templates are compiled in, so an installed binary needs no data files.
            resources: [.embedInCode("Pipelines")]
        ),
        // A small command-line parser of our own (no swift-argument-parser here).
        .target(name: "ArgumentParsing"),
        .executableTarget(name: "camrec", dependencies: ["CamrecKit", "ArgumentParsing"]),
        .target(
            name: "VirtualCamera",
            linkerSettings: [
                .linkedLibrary("dl"), .linkedLibrary("pthread"),
                .linkedLibrary("turbojpeg"), .linkedLibrary("x264"),
            ]
        ),
        .testTarget(name: "GStreamerTests", dependencies: ["GStreamer"]),
        .testTarget(name: "CamrecKitTests", dependencies: ["CamrecKit", "V4L2"]),
        // V4L2 probing and format choice, and CamrecKit's listing of what they find (camrec devices).
        .testTarget(name: "V4L2Tests", dependencies: ["V4L2", "MediaValues", "CamrecKit"]),
        .testTarget(name: "MediaValuesTests", dependencies: ["MediaValues"]),
        .testTarget(name: "MP4Tests", dependencies: ["MP4"]),
        .testTarget(name: "ArgumentParsingTests", dependencies: ["ArgumentParsing"]),
        // End-to-end tests run the built `camrec` binary (and the VirtualCamera) as a user would.
        .testTarget(name: "CamrecTests", dependencies: ["CamrecKit"]),
    ]
)

@testable import CamrecKit
@testable import CamrecCore
import GStreamer
import Testing

/// The Debian package camrec names for a missing element: its own knowledge, added to the
/// bindings' errors (which say only how to look).
@Suite struct PluginPackagesTests {
    @Test func aKnownElementNamesItsPackage() {
        #expect(PluginPackages.hint(for: "x264enc") == "install it with: sudo apt-get install gstreamer1.0-plugins-ugly")
        #expect(PluginPackages.package(for: "avenc_aac") == "gstreamer1.0-libav")
        #expect(PluginPackages.package(for: "no_such_element") == nil)
    }

    @Test func aMissingElementErrorGainsThePackage() {
        let error = GStreamerError.missingElement("x264enc", hint: GStreamerError.lookHint(for: "x264enc"))
        #expect(error.namingPackage.description
                == "GStreamer element 'x264enc' is missing: install it with: sudo apt-get install gstreamer1.0-plugins-ugly")
        let unknown = GStreamerError.missingElement("nothere", hint: GStreamerError.lookHint(for: "nothere"))
        #expect(unknown.namingPackage == unknown)
        #expect(FailureMapping.camrecError(for: error, camera: nil).message.contains("gstreamer1.0-plugins-ugly"))
    }
}

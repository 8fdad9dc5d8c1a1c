import Foundation
import GStreamer
import Testing

/// The device monitor's wrappers own exactly one reference each and let go of it.
@Suite struct DeviceMonitorTests {
    @Test func monitorAndDevicesAreOwnedOnce() throws {
        var watches: [FinalisationWatch] = []
        do {
            let monitor = try DeviceMonitor()
            #expect(monitor.referenceCount == 1 && !monitor.isFloating)
            monitor.addFilter(classes: "Audio/Source")
            let started = monitor.start()
            let devices = monitor.devices()
            if started { monitor.stop() }
            for device in devices {
                #expect(device.deviceClass.contains("Audio/Source"))
                if ProcessInfo.processInfo.environment["CAMREC_DUMP_DEVICES"] != nil {
                    print(device.displayName, device.deviceClass, device.caps?.description ?? "-",
                          device.stringProperty("internal-name") ?? "-", device.properties)
                }
            }
            watches = [FinalisationWatch(monitor)] + devices.map(FinalisationWatch.init)
        }
        #expect(Wait.until { watches.allSatisfy { !$0.isAlive } })
    }

    /// Providers are kept by their factory (one per factory, shared with device monitors),
    /// so ownership shows as one reference per wrapper, released when the wrapper goes.
    @Test func providerReferencesAreOwnedOnceAndItHasAServerProperty() throws {
        let provider = try #require(try DeviceProvider.make("pulsedeviceprovider"))
        #expect(!provider.isFloating)
        let held = provider.referenceCount
        do {
            let again = try #require(try DeviceProvider.make("pulsedeviceprovider"))
            #expect(again.objectPointer == provider.objectPointer && provider.referenceCount == held + 1)
        }
        #expect(provider.referenceCount == held)
        // (Not started here: the provider is shared with CamrecKit's sound catalog, which
        // sets its "server"; DevicesSoundTests and AudioResolverLiveTests cover that.)
        #expect(provider.hasProperty("server"))
        #expect(try DeviceProvider.make("no-such-provider") == nil)
    }
}

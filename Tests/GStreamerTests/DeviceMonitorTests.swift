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
}

import Foundation
import GStreamer
import Testing

/// The device provider's wrappers own exactly one reference each and let go of it.
@Suite struct DeviceProviderTests {
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

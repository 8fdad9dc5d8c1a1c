@testable import CamrecKit
import Testing

/// Issue 29 item 14: `--serve 0.0.0.0:PORT` suggests URLs a client can use (the machine's
/// addresses), never `rtsp://0.0.0.0:PORT/live`.
@Suite struct ServeURLTests {
    @Test func item14_aWildcardAddressIsShownAsTheMachinesAddresses() {
        let any4 = ServeSettings(address: "0.0.0.0", port: 8554)
        #expect(any4.urls(port: 8554, interfaces: ["127.0.0.1", "192.0.2.7", "2001:db8::5"])
                == ["rtsp://192.0.2.7:8554/live", "rtsp://127.0.0.1:8554/live"])
        let any6 = ServeSettings(address: "::", port: 0)
        #expect(any6.urls(port: 40000, interfaces: ["127.0.0.1", "::1", "192.0.2.7", "2001:db8::5"])
                == ["rtsp://192.0.2.7:40000/live", "rtsp://[2001:db8::5]:40000/live",
                    "rtsp://127.0.0.1:40000/live", "rtsp://[::1]:40000/live"])
        // No interface known: this machine's loopback, still a usable URL.
        #expect(any4.urls(port: 8554, interfaces: []) == ["rtsp://127.0.0.1:8554/live"])
        // The real interfaces: whatever they are, never the wildcard.
        #expect(!any4.url(port: 8554).contains("0.0.0.0"))
        // An address given is used as it is.
        #expect(ServeSettings(address: "192.0.2.9", port: 1).urls(port: 1) == ["rtsp://192.0.2.9:1/live"])
        #expect(ServeSettings(address: "::1", port: 1).url(port: 1) == "rtsp://[::1]:1/live")
    }
}

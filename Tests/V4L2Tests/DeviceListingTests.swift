import Foundation
import Testing
@testable import CamrecKit
@testable import V4L2

@Suite struct DeviceListingTests {
    let camera = Fixtures.device(
        path: "/dev/video0", card: "Integrated Camera", index: 0,
        formats: [
            PixelFormat(fourcc: "YUYV", description: "YUYV 4:2:2", compressed: false, sizes: [
                FrameSizeOption(width: 640, height: 480, rates: [FrameRateValue(15), FrameRateValue(30)]),
            ]),
            PixelFormat(fourcc: "MJPG", description: "Motion-JPEG", compressed: true, sizes: [
                FrameSizeOption(width: 1280, height: 720, rates: [FrameRateValue(numerator: 30000, denominator: 1001)]),
            ]),
        ],
        controls: [Fixtures.brightness, Fixtures.exposure, Fixtures.powerLine])

    @Test func jsonIsOneStableSnakeCaseLine() {
        let json = DeviceListing.jsonText([camera])
        #expect(!json.contains("\n"))
        #expect(json == #"{"devices":[{"bus":"usb-0000:00:14.0-1","capabilities":["video_capture","streaming","ext_pix_format"],"card":"Integrated Camera","controls":[{"default":128,"flags":[],"friendly":"brightness","id":9963776,"key":"brightness","max":255,"menu":[],"min":0,"name":"Brightness","step":1,"type":"integer","value":140},{"default":251,"flags":["inactive"],"friendly":"exposure","id":10094850,"key":"exposure_absolute","max":2047,"menu":[],"min":3,"name":"Exposure (Absolute)","step":4,"type":"integer","value":null},{"default":1,"flags":[],"friendly":"power-line","id":9963800,"key":"power_line_frequency","max":2,"menu":[{"index":0,"name":"Disabled"},{"index":1,"name":"50 Hz"},{"index":2,"name":"60 Hz"}],"min":0,"name":"Power Line Frequency","step":1,"type":"menu","value":2}],"driver":"uvcvideo","formats":[{"compressed":false,"description":"YUYV 4:2:2","fourcc":"YUYV","sizes":[{"fps":[30,15],"height":480,"width":640}]},{"compressed":true,"description":"Motion-JPEG","fourcc":"MJPG","sizes":[{"fps":[29.97],"height":720,"width":1280}]}],"index":0,"kind":"video","path":"/dev/video0","stable_name":null}],"problems":[],"sound_server":null,"sound_sources":[]}"#)
    }

    @Test func jsonParsesWithTheDocumentedShape() throws {
        let data = Data(DeviceListing.jsonText([camera], failures: [.busy(path: "/dev/video2")], pretty: true).utf8)
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let devices = try #require(root["devices"] as? [[String: Any]])
        let device = try #require(devices.first)
        #expect(Set(root.keys) == ["devices", "problems", "sound_server", "sound_sources"])
        #expect(Set(device.keys) == ["kind", "index", "path", "card", "driver", "bus", "capabilities", "formats", "controls", "stable_name"])
        let format = try #require((device["formats"] as? [[String: Any]])?.first)
        #expect(format["fourcc"] as? String == "YUYV")
        let size = try #require((format["sizes"] as? [[String: Any]])?.first)
        #expect(size["fps"] as? [Double] == [30, 15])
        let control = try #require((device["controls"] as? [[String: Any]])?.first)
        #expect(Set(control.keys) == ["id", "name", "key", "type", "min", "max", "step", "default", "value", "flags", "menu", "friendly"])
        let problems = try #require(root["problems"] as? [[String: Any]])
        #expect(problems.first?["path"] as? String == "/dev/video2")
    }

    @Test func decodesBack() throws {
        let data = Data(DeviceListing.jsonText([camera]).utf8)
        let document = try JSONDecoder().decode(DeviceListing.Document.self, from: data)
        #expect(document == DeviceListing.document([camera]))
    }

    @Test func captureDeviceRoundTripsExactly() throws {
        let data = try JSONEncoder().encode(camera)
        #expect(try JSONDecoder().decode(CaptureDevice.self, from: data) == camera)
    }

    @Test func humanText() {
        let text = DeviceListing.humanText([camera])
        #expect(text == """
            0: /dev/video0  Integrated Camera
               driver uvcvideo, bus usb-0000:00:14.0-1
               YUYV  YUYV 4:2:2
                     640x480 @ 30, 15 fps
               MJPG  Motion-JPEG (compressed)
                     1280x720 @ 29.97 fps
               controls:
                 brightness                         integer 0…255, default 128, now 140
                 exposure_absolute (exposure)       integer 3…2047 step 4, default 251 (inactive)
                 power_line_frequency (power-line)  menu (0: Disabled, 1: 50 Hz, 2: 60 Hz), default 1, now 2

            """)
        #expect(!DeviceListing.humanText([camera], showControls: false).contains("controls:"))
    }

    @Test func groupsSizesWithTheSameRates() {
        let sizes = [
            FrameSizeOption(width: 640, height: 480, rates: [FrameRateValue(30), FrameRateValue(15)]),
            FrameSizeOption(width: 1280, height: 720, rates: [FrameRateValue(10)]),
            FrameSizeOption(width: 320, height: 240, rates: [FrameRateValue(30), FrameRateValue(15)]),
            FrameSizeOption(width: 160, height: 120, rates: []),
        ]
        #expect(DeviceListing.sizeGroups(sizes) == [
            "640x480, 320x240 @ 30, 15 fps", "1280x720 @ 10 fps", "160x120 @ rates not reported",
        ])
    }

    @Test func humanTextEndsEachLineAndSaysNothingWithoutCameras() {
        #expect(DeviceListing.humanText([camera]).hasSuffix("now 2\n"))
        #expect(DeviceListing.humanText([camera, camera]).components(separatedBy: "\n\n").count == 2, "one blank line between cameras")
        #expect(DeviceListing.humanText([]) == "")
    }
}

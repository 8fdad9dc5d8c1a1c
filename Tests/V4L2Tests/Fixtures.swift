import MediaValues
@testable import V4L2

/// Cameras described as data, shaped like what real UVC webcams report.
enum Fixtures {
    static func rates(_ values: Int...) -> [FrameRateValue] { values.map { FrameRateValue($0) } }

    static func size(_ w: Int, _ h: Int, _ rates: [FrameRateValue]) -> FrameSizeOption {
        FrameSizeOption(width: w, height: h, rates: rates)
    }

    /// A typical laptop webcam: raw YUYV is slow at large sizes, MJPEG is fast everywhere, plus H.264.
    static let webcamFormats: [PixelFormat] = [
        PixelFormat(fourcc: "YUYV", description: "YUYV 4:2:2", compressed: false, sizes: [
            size(640, 480, rates(30, 15)), size(320, 240, rates(30, 15)),
            size(1280, 720, rates(10, 5)), size(1920, 1080, rates(5)),
        ]),
        PixelFormat(fourcc: "MJPG", description: "Motion-JPEG", compressed: true, sizes: [
            size(640, 480, rates(30, 15)), size(1280, 720, rates(30, 15)), size(1920, 1080, rates(30, 15)),
        ]),
        PixelFormat(fourcc: "H264", description: "H.264", compressed: true, sizes: [
            size(1280, 720, rates(30)), size(1920, 1080, rates(30)),
        ]),
    ]

    static func device(path: String, card: String, index: Int, formats: [PixelFormat] = webcamFormats,
                       controls: [Control] = []) -> CaptureDevice {
        CaptureDevice(path: path, card: card, driver: "uvcvideo", bus: "usb-0000:00:14.0-\(index + 1)",
                      capabilities: ["video_capture", "streaming", "ext_pix_format"],
                      formats: formats, controls: controls, index: index)
    }

    static let brightness = Control(id: 0x0098_0900, name: "Brightness", type: .integer, minimum: 0, maximum: 255,
                                    step: 1, defaultValue: 128, value: 140)
    static let autoWhiteBalance = Control(id: 0x0098_090c, name: "White Balance Temperature, Auto", type: .boolean,
                                          minimum: 0, maximum: 1, step: 1, defaultValue: 1, value: 1)
    static let powerLine = Control(id: 0x0098_0918, name: "Power Line Frequency", type: .menu, minimum: 0, maximum: 2,
                                   step: 1, defaultValue: 1, value: 2,
                                   menu: [MenuItem(index: 0, name: "Disabled"), MenuItem(index: 1, name: "50 Hz"),
                                          MenuItem(index: 2, name: "60 Hz")])
    static let exposure = Control(id: 0x009a_0902, name: "Exposure (Absolute)", type: .integer, minimum: 3, maximum: 2047,
                                  step: 4, defaultValue: 251, value: nil, flags: [.inactive])
    static let controls = [brightness, autoWhiteBalance, powerLine, exposure]
}

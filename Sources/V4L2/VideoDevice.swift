import CV4L2
import MediaValues
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An open V4L2 device node: queries capabilities, formats and controls, and sets controls.
///
/// Opened with O_RDWR | O_NONBLOCK (what v4l2src does; non-blocking so a probe never waits
/// on a frame) and closed when the value is released. Probing does not start streaming, so it
/// works while another program records from the same camera.
public final class VideoDevice: Sendable {
    /// The device node path.
    public let path: String
    private let fd: Int32

    /// Opens `path`, mapping failures to `DeviceError` (missing, busy, permission, …).
    public init(path: String) throws(DeviceError) {
        let fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw DeviceError.fromOpen(path: path, errno: errno) }
        self.path = path
        self.fd = fd
    }

    deinit { close(fd) }

    // MARK: Probing

    /// Everything about the device as a `CaptureDevice`, or `.notACaptureDevice` when it has no
    /// streaming video capture (e.g. the metadata node UVC cameras expose next to the video node).
    public func probe() throws(DeviceError) -> CaptureDevice {
        let info = try capability()
        let caps = info.deviceCaps
        let single = caps & Cap.videoCapture != 0
        let multi = caps & Cap.videoCaptureMultiplanar != 0
        let codec = caps & (Cap.videoM2M | Cap.videoM2MMultiplanar) != 0
        guard single || multi, caps & Cap.streaming != 0, !codec else {
            throw .notACaptureDevice(path: path)
        }
        let bufferType = single ? BufferType.videoCapture : BufferType.videoCaptureMultiplanar
        return CaptureDevice(
            path: path, card: info.card, driver: info.driver, bus: info.bus,
            capabilities: CapabilityNames.names(caps), multiplanar: !single,
            formats: try formats(bufferType: bufferType), controls: try controls())
    }

    struct Capability {
        var driver: String
        var card: String
        var bus: String
        var deviceCaps: UInt32
    }

    func capability() throws(DeviceError) -> Capability {
        var cap = v4l2_capability()
        if let code = ioctl(camrec_VIDIOC_QUERYCAP, &cap) {
            // ENOTTY/EINVAL: a character device that is not V4L2 at all.
            if code == ENOTTY || code == EINVAL { throw .notACaptureDevice(path: path) }
            throw .fromIoctl(path: path, request: "VIDIOC_QUERYCAP", errno: code)
        }
        // device_caps describes this node; `capabilities` the whole physical device.
        let caps = cap.capabilities & Cap.deviceCaps != 0 ? cap.device_caps : cap.capabilities
        return Capability(driver: cString(tuple: cap.driver), card: cString(tuple: cap.card),
                          bus: cString(tuple: cap.bus_info), deviceCaps: caps)
    }

    // MARK: Formats

    func formats(bufferType: UInt32) throws(DeviceError) -> [PixelFormat] {
        var result: [PixelFormat] = []
        for index in 0..<UInt32(Limits.formats) {
            var desc = v4l2_fmtdesc()
            desc.index = index
            desc.type = bufferType
            if let code = ioctl(camrec_VIDIOC_ENUM_FMT, &desc) {
                // EINVAL ends the list; ENOTTY means the device has no formats to enumerate.
                if code == EINVAL || code == ENOTTY { break }
                throw .fromIoctl(path: path, request: "VIDIOC_ENUM_FMT", errno: code)
            }
            let compressed = desc.flags & 0x0001 != 0  // V4L2_FMT_FLAG_COMPRESSED
            let (sizes, range) = try frameSizes(pixelFormat: desc.pixelformat)
            result.append(PixelFormat(fourcc: fourccString(desc.pixelformat), description: cString(tuple: desc.description),
                                      compressed: compressed, sizes: sizes, sizeRange: range))
        }
        return result
    }

    private func frameSizes(pixelFormat: UInt32) throws(DeviceError) -> ([FrameSizeOption], FrameSizeRange?) {
        var options: [FrameSizeOption] = []
        for index in 0..<UInt32(Limits.sizes) {
            var size = v4l2_frmsizeenum()
            size.index = index
            size.pixel_format = pixelFormat
            if let code = ioctl(camrec_VIDIOC_ENUM_FRAMESIZES, &size) {
                if code == ENODEV || code == ENXIO {
                    throw .fromIoctl(path: path, request: "VIDIOC_ENUM_FRAMESIZES", errno: code)
                }
                break  // EINVAL ends the list; other errors: keep what we have (sizes are advisory)
            }
            switch size.type {
            case SizeType.discrete:
                let discrete = FrameSize(width: Int(size.discrete.width), height: Int(size.discrete.height))
                guard discrete.width > 0, discrete.height > 0 else { continue }
                options.append(FrameSizeOption(width: discrete.width, height: discrete.height,
                                               rates: try frameRates(pixelFormat: pixelFormat, size: discrete)))
            case SizeType.continuous, SizeType.stepwise:
                // A range is reported once, at index 0. List common sizes inside it so that
                // callers (and FormatChooser) see concrete sizes with their rates.
                let s = size.stepwise
                let continuous = size.type == SizeType.continuous
                let range = FrameSizeRange(
                    minimum: FrameSize(width: Int(s.min_width), height: Int(s.min_height)),
                    maximum: FrameSize(width: Int(s.max_width), height: Int(s.max_height)),
                    step: continuous ? FrameSize(width: 1, height: 1)
                        : FrameSize(width: Int(max(s.step_width, 1)), height: Int(max(s.step_height, 1))))
                var listed: [FrameSizeOption] = []
                for common in range.commonSizes {
                    listed.append(FrameSizeOption(
                        width: common.width, height: common.height,
                        rates: try frameRates(pixelFormat: pixelFormat, size: common)))
                }
                return (listed, range)
            default:
                break
            }
        }
        return (options, nil)
    }

    private func frameRates(pixelFormat: UInt32, size: FrameSize) throws(DeviceError) -> [FrameRateValue] {
        // Sizes come from the kernel's UInt32s (or common sizes inside its range), so they fit.
        guard let width = UInt32(exactly: size.width), let height = UInt32(exactly: size.height) else { return [] }
        var rates: [FrameRateValue] = []
        for index in 0..<UInt32(Limits.intervals) {
            var interval = v4l2_frmivalenum()
            interval.index = index
            interval.pixel_format = pixelFormat
            interval.width = width
            interval.height = height
            if let code = ioctl(camrec_VIDIOC_ENUM_FRAMEINTERVALS, &interval) {
                if code == ENODEV || code == ENXIO {
                    throw .fromIoctl(path: path, request: "VIDIOC_ENUM_FRAMEINTERVALS", errno: code)
                }
                break
            }
            switch interval.type {
            case IntervalType.discrete:
                let d = interval.discrete
                if let rate = FrameRateValue(intervalNumerator: Int(d.numerator), intervalDenominator: Int(d.denominator)) {
                    rates.append(rate)
                }
            case IntervalType.continuous, IntervalType.stepwise:
                let s = interval.stepwise
                return FrameRateValue.rates(
                    intervalMinimum: (Int(s.min.numerator), Int(s.min.denominator)),
                    intervalMaximum: (Int(s.max.numerator), Int(s.max.denominator)),
                    intervalStep: interval.type == IntervalType.continuous
                        ? nil : (Int(s.step.numerator), Int(s.step.denominator)))
            default:
                break
            }
        }
        return rates
    }

    // MARK: Controls

    /// The device's controls, enumerated with VIDIOC_QUERYCTRL | V4L2_CTRL_FLAG_NEXT_CTRL.
    /// Class headings and disabled controls are left out. Enumeration stops at the first error
    /// (EINVAL marks the end); only a vanished device is reported as an error, because a camera
    /// with unreadable controls can still record.
    public func controls() throws(DeviceError) -> [Control] {
        var result: [Control] = []
        var nextID: UInt32 = 0
        for _ in 0..<Limits.controls {
            var query = v4l2_queryctrl()
            query.id = nextID | Flag.nextControl
            if let code = ioctl(camrec_VIDIOC_QUERYCTRL, &query) {
                if code == ENODEV || code == ENXIO {
                    throw .fromIoctl(path: path, request: "VIDIOC_QUERYCTRL", errno: code)
                }
                break
            }
            // A driver that does not advance would loop forever (v4l2src 1.22 does); we stop.
            guard query.id > nextID else { break }
            nextID = query.id
            let type = ControlType(v4l2: query.type)
            let flags = ControlFlags(rawValue: query.flags)
            if type == .controlClass || flags.contains(.disabled) { continue }
            result.append(Control(
                id: query.id, name: cString(tuple: query.name), type: type,
                minimum: Int64(query.minimum), maximum: Int64(query.maximum), step: Int64(query.step),
                defaultValue: Int64(query.default_value),
                value: currentValue(id: query.id, type: type, flags: flags),
                menu: (type == .menu || type == .integerMenu)
                    ? menuItems(id: query.id, type: type, minimum: query.minimum, maximum: query.maximum) : [],
                flags: flags))
        }
        return result
    }

    /// The current value of the 32-bit control `id` (VIDIOC_G_CTRL), or nil when the camera
    /// has no such control or cannot read it.
    public func value(ofControl id: UInt32) -> Int64? {
        var control = v4l2_control(id: id, value: 0)
        return ioctl(camrec_VIDIOC_G_CTRL, &control) == nil ? Int64(control.value) : nil
    }

    /// Whether the camera's autofocus is still searching (V4L2_CID_AUTO_FOCUS_STATUS has
    /// its busy bit); nil when the camera does not report it (most UVC webcams).
    public func autoFocusBusy() -> Bool? {
        value(ofControl: Self.autoFocusStatusID).map { $0 & 1 != 0 }
    }

    /// V4L2_CID_AUTO_FOCUS_STATUS (camera class + 30): read-only bits, 1 busy, 2 reached, 4 failed.
    public static let autoFocusStatusID: UInt32 = 0x009A_091E

    private func currentValue(id: UInt32, type: ControlType, flags: ControlFlags) -> Int64? {
        switch type {
        case .button, .controlClass, .string, .compound: return nil
        default: break
        }
        if flags.contains(.writeOnly) { return nil }
        if type == .integer64 {
            var value: Int64 = 0
            return camrec_v4l2_get_control64(fd, id, &value) == 0 ? value : nil
        }
        var control = v4l2_control(id: id, value: 0)
        return ioctl(camrec_VIDIOC_G_CTRL, &control) == nil ? Int64(control.value) : nil
    }

    private func menuItems(id: UInt32, type: ControlType, minimum: Int32, maximum: Int32) -> [MenuItem] {
        guard minimum >= 0, maximum >= minimum, maximum - minimum < Limits.menuItems else { return [] }
        var items: [MenuItem] = []
        var buffer = [CChar](repeating: 0, count: 64)
        for index in minimum...maximum {
            var value: Int64 = 0
            let status = buffer.withUnsafeMutableBufferPointer { name in
                camrec_v4l2_query_menu(fd, id, UInt32(index), name.baseAddress, UInt(name.count), &value)
            }
            // Menus may have holes: QUERYMENU fails with EINVAL for skipped indexes.
            guard status == 0 else { continue }
            if type == .integerMenu {
                items.append(MenuItem(index: Int64(index), name: String(value), value: value))
            } else {
                let name = buffer.withUnsafeBufferPointer { pointer in
                    String(decoding: pointer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
                }
                items.append(MenuItem(index: Int64(index), name: name))
            }
        }
        return items
    }

    /// Sets the control that `reference` names (key such as "brightness", driver name, or id)
    /// to `value`, after checking its range, step and menu items. Returns the control as read back.
    @discardableResult
    public func setControl(_ reference: String, to value: Int64) throws(ControlError) -> Control {
        let control = try findControl(reference)
        try control.validate(value)
        return try write(control, value: value)
    }

    /// Sets the control that `reference` names from text a person typed ("on", "Manual Mode", "150").
    @discardableResult
    public func setControl(_ reference: String, text: String) throws(ControlError) -> Control {
        let control = try findControl(reference)
        return try write(control, value: try control.parseValue(text))
    }

    /// Carries out a planned write (`ControlPlanner`); returns the control as read back.
    @discardableResult
    public func apply(_ planned: ControlWrite) throws(ControlError) -> Control {
        try write(planned.control, value: planned.value)
    }

    private func findControl(_ reference: String) throws(ControlError) -> Control {
        let all: [Control]
        do { all = try controls() } catch { throw .device(error) }
        guard let control = all.first(where: { $0.matches(reference) }) else {
            throw .unknownControl(reference, available: all.map(\.key))
        }
        return control
    }

    private func write(_ control: Control, value: Int64) throws(ControlError) -> Control {
        if control.type == .integer64 {
            if camrec_v4l2_set_control64(fd, control.id, value) != 0 {
                throw mapSetError(errno, control: control, request: "VIDIOC_S_EXT_CTRLS")
            }
        } else {
            guard let narrow = Int32(exactly: value) else {
                throw .outOfRange(control: control.name, value: value, minimum: control.minimum,
                                  maximum: control.maximum, step: control.step)
            }
            var request = v4l2_control(id: control.id, value: narrow)
            if let code = ioctl(camrec_VIDIOC_S_CTRL, &request) {
                throw mapSetError(code, control: control, request: "VIDIOC_S_CTRL")
            }
        }
        let flags = control.flags
        return Control(id: control.id, name: control.name, type: control.type, minimum: control.minimum,
                       maximum: control.maximum, step: control.step, defaultValue: control.defaultValue,
                       value: currentValue(id: control.id, type: control.type, flags: flags) ?? value,
                       menu: control.menu, flags: flags)
    }

    private func mapSetError(_ code: Int32, control: Control, request: String) -> ControlError {
        switch code {
        case EACCES: .readOnly(control: control.name)
        case ERANGE: .outOfRange(control: control.name, value: control.value ?? 0, minimum: control.minimum,
                                 maximum: control.maximum, step: control.step)
        default: .device(.fromIoctl(path: path, request: request, errno: code))
        }
    }

    // MARK: Plumbing

    /// Runs an ioctl; nil on success, else errno.
    private func ioctl<T>(_ request: UInt, _ argument: inout T) -> Int32? {
        let status = withUnsafeMutablePointer(to: &argument) { camrec_v4l2_ioctl(fd, request, $0) }
        return status == 0 ? nil : errno
    }

    private enum Limits {
        // Guards against drivers (or emulators) that never end a list.
        static let formats = 128
        static let sizes = 512
        static let intervals = 128
        static let controls = 1024
        static let menuItems: Int32 = 256
    }

    /// Constants of linux/videodev2.h (through CV4L2) as the UInt32 the structures use.
    private enum Cap {
        static let videoCapture = UInt32(V4L2_CAP_VIDEO_CAPTURE)
        static let videoCaptureMultiplanar = UInt32(V4L2_CAP_VIDEO_CAPTURE_MPLANE)
        static let videoM2MMultiplanar = UInt32(V4L2_CAP_VIDEO_M2M_MPLANE)
        static let videoM2M = UInt32(V4L2_CAP_VIDEO_M2M)
        static let streaming = UInt32(V4L2_CAP_STREAMING)
        static let deviceCaps = UInt32(V4L2_CAP_DEVICE_CAPS)
    }

    private enum BufferType {
        static let videoCapture = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        static let videoCaptureMultiplanar = V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE.rawValue
    }

    private enum SizeType {
        static let discrete = V4L2_FRMSIZE_TYPE_DISCRETE.rawValue
        static let continuous = V4L2_FRMSIZE_TYPE_CONTINUOUS.rawValue
        static let stepwise = V4L2_FRMSIZE_TYPE_STEPWISE.rawValue
    }

    private enum IntervalType {
        static let discrete = V4L2_FRMIVAL_TYPE_DISCRETE.rawValue
        static let continuous = V4L2_FRMIVAL_TYPE_CONTINUOUS.rawValue
        static let stepwise = V4L2_FRMIVAL_TYPE_STEPWISE.rawValue
    }

    private enum Flag {
        static let nextControl = UInt32(V4L2_CTRL_FLAG_NEXT_CTRL)
    }
}

/// A NUL-terminated C char array imported as a tuple, as a String (invalid UTF-8 repaired).
func cString<T>(tuple: T) -> String {
    withUnsafeBytes(of: tuple) { raw in
        String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
    }
}

/// A V4L2 pixel format code as text: 0x56595559 → "YUYV". Bit 31 marks big-endian variants ("-BE").
public func fourccString(_ code: UInt32) -> String {
    let bigEndian = code & 0x8000_0000 != 0
    let bytes = [code & 0xff, (code >> 8) & 0xff, (code >> 16) & 0xff, (code >> 24) & 0x7f].map { UInt8($0) }
    let text = String(decoding: bytes.map { (0x20...0x7e).contains($0) ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
    return bigEndian ? text + "-BE" : text
}

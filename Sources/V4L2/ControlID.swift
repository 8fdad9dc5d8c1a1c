/// V4L2 control ids (V4L2_CID_*) that camrec's friendly names map to. Ids are the same on
/// every driver; names are not (kernels renamed "Exposure, Auto Priority" to "Exposure,
/// Dynamic Framerate"), so friendly names find controls by id first.
public enum ControlID {
    /// V4L2_CID_MPEG_VIDEO_H264_I_PERIOD: frames from one H.264 keyframe to the next, on
    /// cameras that encode H.264 themselves (e.g. a Raspberry Pi camera's bcm2835-v4l2).
    public static let h264KeyframePeriod: UInt32 = 0x0099_0a66
    /// V4L2_CID_MPEG_VIDEO_GOP_SIZE: the same for encoders that name it a GOP.
    public static let gopSize: UInt32 = 0x0099_09cb
    /// V4L2_CID_MPEG_VIDEO_REPEAT_SEQ_HEADER: parameter sets before every keyframe.
    public static let repeatSequenceHeader: UInt32 = 0x0099_09e2
    /// V4L2_CID_BRIGHTNESS.
    public static let brightness: UInt32 = 0x0098_0900
    /// V4L2_CID_CONTRAST.
    public static let contrast: UInt32 = 0x0098_0901
    /// V4L2_CID_SATURATION.
    public static let saturation: UInt32 = 0x0098_0902
    /// V4L2_CID_AUTO_WHITE_BALANCE.
    public static let autoWhiteBalance: UInt32 = 0x0098_090c
    /// V4L2_CID_EXPOSURE (a user-class exposure in driver units, on non-UVC sensors).
    public static let userExposure: UInt32 = 0x0098_0911
    /// V4L2_CID_GAIN.
    public static let gain: UInt32 = 0x0098_0913
    /// V4L2_CID_POWER_LINE_FREQUENCY.
    public static let powerLineFrequency: UInt32 = 0x0098_0918
    /// V4L2_CID_WHITE_BALANCE_TEMPERATURE (kelvin).
    public static let whiteBalanceTemperature: UInt32 = 0x0098_091a
    /// V4L2_CID_SHARPNESS.
    public static let sharpness: UInt32 = 0x0098_091b
    /// V4L2_CID_BACKLIGHT_COMPENSATION.
    public static let backlightCompensation: UInt32 = 0x0098_091c
    /// V4L2_CID_EXPOSURE_AUTO (menu: 0 auto, 1 manual, 2 shutter priority, 3 aperture priority).
    public static let exposureAuto: UInt32 = 0x009a_0901
    /// V4L2_CID_EXPOSURE_ABSOLUTE, in 100 µs units.
    public static let exposureAbsolute: UInt32 = 0x009a_0902
    /// V4L2_CID_EXPOSURE_AUTO_PRIORITY ("Exposure, Dynamic Framerate" on newer kernels):
    /// whether auto-exposure may lower the frame rate.
    public static let exposureAutoPriority: UInt32 = 0x009a_0903
    /// V4L2_CID_PAN_ABSOLUTE (arc seconds).
    public static let panAbsolute: UInt32 = 0x009a_0908
    /// V4L2_CID_TILT_ABSOLUTE (arc seconds).
    public static let tiltAbsolute: UInt32 = 0x009a_0909
    /// V4L2_CID_FOCUS_ABSOLUTE.
    public static let focusAbsolute: UInt32 = 0x009a_090a
    /// V4L2_CID_FOCUS_AUTO ("Focus, Automatic Continuous").
    public static let focusAuto: UInt32 = 0x009a_090c
    /// V4L2_CID_ZOOM_ABSOLUTE.
    public static let zoomAbsolute: UInt32 = 0x009a_090d
    /// V4L2_CID_FLASH_LED_MODE (menu: 0 none, 1 flash, 2 torch).
    public static let flashLEDMode: UInt32 = 0x009c_0901
    /// V4L2_CID_ANALOGUE_GAIN (image source class), where a sensor has no V4L2_CID_GAIN.
    public static let analogueGain: UInt32 = 0x009e_0903

    /// V4L2_EXPOSURE_MANUAL: the index of exposure_auto's manual mode.
    public static let exposureManual: Int64 = 1
}

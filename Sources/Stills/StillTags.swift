import CamrecCore
import MediaValues

/// What a still says about itself in EXIF besides its capture time: the camera that took
/// it and, with `--location`, where.
public struct StillTags: Sendable, Equatable {
    /// The camera's name as `camrec devices` shows it (its V4L2 card name), written as
    /// Model; nil: none is known.
    public var camera: String?
    /// Who made it, written as Make: the USB manufacturer when the camera has one in
    /// sysfs; nil: the camera's name is written as Make too.
    public var maker: String?
    /// `--location`: GPS tags; nil writes none.
    public var location: GeoLocation?

    public init(camera: String? = nil, maker: String? = nil, location: GeoLocation? = nil) {
        self.camera = camera
        self.maker = maker
        self.location = location
    }
}

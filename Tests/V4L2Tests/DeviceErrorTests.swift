import Testing
@testable import V4L2
#if canImport(Glibc)
import Glibc
#endif

@Suite struct DeviceErrorTests {
    let path = "/dev/video0"

    @Test func mapsOpenErrno() {
        #expect(DeviceError.fromOpen(path: path, errno: ENOENT) == .notFound(path: path))
        #expect(DeviceError.fromOpen(path: path, errno: ENODEV) == .notFound(path: path))
        #expect(DeviceError.fromOpen(path: path, errno: ENXIO) == .notFound(path: path))
        #expect(DeviceError.fromOpen(path: path, errno: EBUSY) == .busy(path: path))
        #expect(DeviceError.fromOpen(path: path, errno: EACCES) == .permissionDenied(path: path))
        #expect(DeviceError.fromOpen(path: path, errno: EPERM) == .permissionDenied(path: path))
        #expect(DeviceError.fromOpen(path: path, errno: EIO) == .openFailed(path: path, errno: EIO))
    }

    @Test func mapsIoctlErrno() {
        #expect(DeviceError.fromIoctl(path: path, request: "VIDIOC_QUERYCAP", errno: ENODEV) == .notFound(path: path))
        #expect(DeviceError.fromIoctl(path: path, request: "VIDIOC_S_FMT", errno: EBUSY) == .busy(path: path))
        #expect(DeviceError.fromIoctl(path: path, request: "VIDIOC_ENUM_FMT", errno: EIO)
            == .ioctlFailed(path: path, request: "VIDIOC_ENUM_FMT", errno: EIO))
    }

    @Test func messagesAreOneActionableLine() {
        let all: [DeviceError] = [
            .notFound(path: path), .busy(path: path), .permissionDenied(path: path), .notACaptureDevice(path: path),
            .openFailed(path: path, errno: EIO), .ioctlFailed(path: path, request: "VIDIOC_ENUM_FMT", errno: EINVAL),
        ]
        for error in all {
            #expect(!error.message.contains("\n"))
            #expect(error.message.contains(path))
            #expect(error.description == error.message)
            #expect(error.path == path)
        }
        #expect(DeviceError.busy(path: path).message.contains("another program is using the camera"))
        #expect(DeviceError.permissionDenied(path: path).message.contains("sudo usermod -aG video $USER"))
        #expect(DeviceError.permissionDenied(path: path).message.contains("log out and in again"))
        #expect(DeviceError.ioctlFailed(path: path, request: "VIDIOC_ENUM_FMT", errno: EINVAL).message
            == "camera /dev/video0 rejected VIDIOC_ENUM_FMT: Invalid argument (EINVAL); the driver may not support it")
    }
}

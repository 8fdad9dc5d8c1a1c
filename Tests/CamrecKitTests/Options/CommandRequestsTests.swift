@testable import CamrecKit
import Foundation
import Testing

/// The smaller requests every camera command makes from its options as given: the camera,
/// the picture, the preview window, the sound, the stills, `camrec still`'s photo and
/// series, and doctor's.
struct CommandRequestsTests {
    @Test func camera() throws {
        let request = try CameraRequest.parse(devices: ["0", "test"], size: "720p", fps: "29.97")
        #expect(request.devices == ["0", "test"] && request.device == "test")
        #expect(request.size == FrameSize(width: 1280, height: 720) && request.rate != nil)
        #expect(try CameraRequest.parse(devices: [], size: nil, fps: nil) == CameraRequest(devices: []))
        #expect(refusal { try CameraRequest.parse(devices: [], size: "huge", fps: nil) }?.hasPrefix("--size: ") == true)
        #expect(refusal { try CameraRequest.parse(devices: [], size: nil, fps: "fast") }?.hasPrefix("--fps: ") == true)
    }

    func picture(rotate: String? = nil, flip: String? = nil, mirror: Bool = false, overlay: String? = nil,
                 overlayPosition: String? = nil, overlayImage: String? = nil,
                 overlayImagePosition: String? = nil) throws(CamrecError) -> PictureRequest {
        try PictureRequest.parse(rotate: rotate, flip: flip, mirror: mirror, overlay: overlay, overlayPosition: overlayPosition,
                                 overlayImage: overlayImage, overlayImagePosition: overlayImagePosition)
    }

    @Test func pictureValues() throws {
        let plain = try picture()
        #expect(plain.orientation == Orientation() && plain.text == nil && plain.imagePath == nil)
        #expect(plain.textPosition == .defaultText && plain.imagePosition == .defaultImage)
        #expect(try picture(rotate: "90", flip: "vertical").orientation == Orientation(rotation: .clockwise, flip: .vertical))
        #expect(try picture(mirror: true).orientation.flip == .horizontal)
        #expect(try picture(flip: "horizontal", mirror: true).orientation.flip == .horizontal)
        let overlaid = try picture(overlay: "%H:%M", overlayPosition: "bottom", overlayImage: "logo.png", overlayImagePosition: "top-left")
        #expect(overlaid.text != nil && overlaid.textPosition == .bottom)
        #expect(overlaid.imagePath == "logo.png" && overlaid.imagePosition == .topLeft)
    }

    @Test func pictureRefusals() {
        #expect(refusal { try picture(rotate: "45") }?.hasPrefix("--rotate: invalid rotation '45'") == true)
        #expect(refusal { try picture(flip: "diagonal") }?.hasPrefix("--flip: invalid flip 'diagonal'") == true)
        #expect(refusal { try picture(flip: "vertical", mirror: true) }
                == "--mirror is --flip horizontal, and --flip vertical was given too: give one of them")
        #expect(refusal { try picture(overlay: "") }?.hasPrefix("--overlay: the overlay text is empty") == true)
        #expect(refusal { try picture(overlay: "x", overlayPosition: "middle") }?.hasPrefix("--overlay-position: invalid position 'middle'") == true)
        #expect(refusal { try picture(overlayPosition: "top") }
                == "--overlay-position needs --overlay TEXT (for the image: --overlay-image-position)")
        #expect(refusal { try picture(overlayImage: "") } == "--overlay-image: give a PNG file")
        #expect(refusal { try picture(overlayImagePosition: "top") } == "--overlay-image-position needs --overlay-image FILE")
    }

    @Test func previewWindow() throws {
        #expect(try PreviewRequest.parse(given: false, value: nil, stops: false) == PreviewRequest(mode: .off))
        #expect(try PreviewRequest.parse(given: true, value: nil, stops: true) == PreviewRequest(mode: .required, stops: true))
        #expect(try PreviewRequest.parse(given: true, value: "auto", stops: false) == PreviewRequest(mode: .ifPossible))
        #expect(refusal { try PreviewRequest.parse(given: true, value: "maybe", stops: false) }
                == "--preview=maybe: unknown value: write --preview, or --preview=auto to record without a window when there is no display")
        #expect(refusal { try PreviewRequest.parse(given: false, value: nil, stops: true) }
                == "--preview-stops needs --preview (closing the preview window is what stops the recording)")
    }

    @Test func sound() throws {
        #expect(try AudioRequest.parse(source: nil, bitrate: nil) == (AudioRequest.none, nil))
        #expect(try AudioRequest.parse(source: "hw:1,0", bitrate: "96k") == (AudioRequest.alsa("hw:1,0"), 96))
        #expect(refusal { try AudioRequest.parse(source: "", bitrate: nil) }
                == "--audio: give a sound source: default, camera, test, file (a --device file: movie's), a source name, an ALSA device such as hw:1,0, or none")
        #expect(try AudioRequest.parse(source: "file", bitrate: nil) == (AudioRequest.movie, nil))
        #expect(refusal { try AudioRequest.parse(source: "test", bitrate: "1k") }?.hasPrefix("--audio-bitrate: invalid bitrate '1k'") == true)
        for source in [nil, "none"] {
            #expect(refusal { try AudioRequest.parse(source: source, bitrate: "96k") }
                    == "--audio-bitrate without --audio: give --audio SOURCE (e.g. --audio default) to record sound")
        }
    }

    @Test func stillFormatAndQuality() throws {
        #expect(try StillFormat.parse(format: nil, quality: nil) == (nil, StillFormat.defaultQuality))
        #expect(try StillFormat.parse(format: "JPG", quality: "70") == (StillFormat.jpeg(quality: 70), 70))
        #expect(try StillFormat.parse(format: "png", quality: nil) == (StillFormat.png, StillFormat.defaultQuality))
        #expect(refusal { try StillFormat.parse(format: "GIF", quality: nil) } == "--still-format: unknown format 'gif': use jpeg or png")
        for bad in ["0", "101", "good"] {
            #expect(refusal { try StillFormat.parse(format: nil, quality: bad) }
                    == "--still-quality: invalid quality '\(bad)': use a whole number from 1 to 100")
        }
    }

    @Test func recordingAndPreviewStills() throws {
        let stills = try StillSettings.parse(pattern: nil, format: "png", quality: nil, every: "30s", moviePath: "cam/movie.mp4")
        #expect(stills.format == .png && stills.every == .seconds(30))
        #expect(stills == (try StillSettings.resolve(pattern: nil, format: .png, every: .seconds(30), moviePath: "cam/movie.mp4")))
        #expect(refusal { try StillSettings.parse(pattern: nil, format: nil, quality: nil, every: "0", moviePath: "m.mp4") }
                == "--still-every: the period must be above 0")
        #expect(refusal { try StillSettings.parse(pattern: "s-%04d.png", format: "jpeg", quality: nil, every: nil, moviePath: "m.mp4") }?
            .hasPrefix("--stills 's-%04d.png' names PNG files but --still-format is jpeg") == true)
        let preview = try PreviewJob.stills(pattern: nil, format: nil, quality: "80")
        #expect(preview == (try StillSettings.resolve(pattern: nil, format: nil, quality: 80, every: nil, moviePath: "preview.mp4")))
    }

    @Test func stillCommandPhotoAndSeries() throws {
        let photo = try StillJob.photo(output: "a.JPEG", quality: "75")
        #expect(photo.output == "a.JPEG" && photo.format == .jpeg(quality: 75))
        #expect(try StillJob.photo(output: "a.png", quality: nil).format == .png)
        #expect(refusal { try StillJob.photo(output: nil, quality: nil) } == "missing OUTPUT: give the photo to write, e.g. camrec still photo.jpg")
        #expect(refusal { try StillJob.photo(output: "a.gif", quality: nil) }
                == "cannot tell the format of 'a.gif': end OUTPUT with .jpg, .jpeg or .png")
        #expect(refusal { try StillJob.photo(output: "a.jpg", quality: "0") }
                == "--still-quality: invalid quality '0': use a whole number from 1 to 100")

        let series = try StillJob.Series(count: nil, interval: nil, settle: nil)
        #expect(series.count == 1 && series.interval == .seconds(1) && series.settle == .seconds(3))
        let given = try StillJob.Series(count: "5", interval: "2s", settle: "0")
        #expect(given.count == 5 && given.interval == .seconds(2) && given.settle == .zero)
        for bad in ["0", "100001", "some"] {
            #expect(refusal { try StillJob.Series(count: bad, interval: nil, settle: nil) }
                    == "--count: invalid count '\(bad)': use a whole number from 1", "\(bad)")
        }
        #expect(refusal { try StillJob.Series(count: nil, interval: "x", settle: nil) }?.hasPrefix("--interval: invalid duration 'x'") == true)
        #expect(refusal { try StillJob.Series(count: nil, interval: nil, settle: "x") }?.hasPrefix("--settle: invalid duration 'x'") == true)

        // A photo leaves auto-exposure's frame rate as it is.
        let job = StillJob(camera: CameraRequest(devices: []), photo: photo, series: given, controls: ControlRequest(),
                           picture: try PictureRequest.parse(rotate: nil, flip: nil, mirror: false, overlay: nil, overlayPosition: nil,
                                                             overlayImage: nil, overlayImagePosition: nil), force: true)
        #expect(!job.controls.keepFrameRate && job.force && job.count == 5 && job.output == "a.JPEG")
    }

    @Test func doctor() throws {
        let camera = CameraRequest(devices: ["test"], size: FrameSize(width: 640, height: 480))
        #expect(try DoctorRequest.parse(camera: camera, segment: "1h", output: nil)
                == DoctorRequest(device: "test", size: FrameSize(width: 640, height: 480), segment: .minutes(60), output: "."))
        #expect(try DoctorRequest.parse(camera: camera, segment: nil, output: "rec/").output == "rec/")
        #expect(refusal { try DoctorRequest.parse(camera: camera, segment: "0", output: nil) }
                == "--segment: a segment must be longer than 0, e.g. 10m")
    }
}

import ArgumentParsing
import CamrecCLI
import CamrecKit

/// `PictureOptions` typed: the options as given, turned into CamrecKit's request.
extension PictureOptions {
    /// The picture asked for (rotation, flips, overlays, masks: every command with these
    /// options has `MaskOptions`' too), typed once; the image files are read when the command
    /// runs (`PictureRequest.resolve()`).
    static func request(_ parsed: ParsedArguments) throws(UsageError) -> PictureRequest {
        var request = try usage { () throws(CamrecError) in
            try PictureRequest.parse(rotate: parsed.value("--rotate"), flip: parsed.value("--flip"), mirror: parsed.flag("--mirror"),
                                     overlay: parsed.value("--overlay"), overlayPosition: parsed.value("--overlay-position"),
                                     overlayImage: parsed.value("--overlay-image"),
                                     overlayImagePosition: parsed.value("--overlay-image-position"))
        }
        request.mask = try MaskOptions.request(parsed)
        return request
    }
}

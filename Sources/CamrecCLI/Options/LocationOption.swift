import ArgumentParsing
import CamrecKit

/// `--location LAT,LON[,ALT]` (record and still): where the pictures are taken, written
/// into every still's EXIF as GPS tags. Declared once for both commands.
public enum LocationOption {
    /// What the command takes and says: its options, arguments and help (`--help`, the man
    /// page, the completions and docs/cli.md are made from it).
    public static let spec = OptionSpec(["--location"], value: "LAT,LON[,ALT]", help: "where the camera is, in decimal degrees (south and west negative) and optionally metres above sea level, e.g. 48.8584,2.2945,35: written into every still's EXIF as GPS tags", summary: "the camera's place, for the stills' GPS tags")
}

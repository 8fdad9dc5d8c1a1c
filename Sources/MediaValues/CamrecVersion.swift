/// camrec's version, in one place: `camrec --version` prints it and stills carry it in
/// their EXIF Software tag ("camrec 0.1.0").
public enum CamrecVersion {
    /// The version number.
    public static let number = "0.1.0"
}

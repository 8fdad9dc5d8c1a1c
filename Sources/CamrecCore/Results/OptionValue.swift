import MediaValues

/// One command-line option's text turned into a typed value by the requests that the
/// command line hands its options to as given (strings and flags): the rules live beside
/// the values, and the command line only reads options.
public enum OptionValue {
    /// `text`, the value given for `option`, turned into a value by `parse`; nil when the
    /// option was not given. A refused value is a usage error that names the option and
    /// repeats `parse`'s message (`--canvas: invalid size '9'`), as the command line's own
    /// parser words a bad value.
    public static func parse<T>(_ option: String, _ text: String?,
                                _ parse: (String) throws(ValueError) -> T) throws(CamrecError) -> T? {
        guard let text else { return nil }
        do {
            return try parse(text)
        } catch {
            throw CamrecError(.usage, "\(option): \(error.message)")
        }
    }

    /// A usage error: something the command line asks for that cannot be done.
    public static func refusal(_ message: String) -> CamrecError {
        CamrecError(.usage, message)
    }
}

#if canImport(Glibc)
import Glibc
#endif

/// The command line as the kernel gives it: bytes. Swift's `CommandLine.arguments` repairs
/// bytes that are not UTF-8 into U+FFFD, which would silently change a file name
/// (`bad\xFF.mp4` written as `bad\u{FFFD}.mp4`); camrec refuses such an argument instead.
public enum RawArguments {
    /// The arguments as Strings, each exactly its bytes.
    ///
    /// - Throws: a usage error (exit 64) naming the first argument that is not valid UTF-8,
    ///   with its bad bytes shown as `\xFF`.
    public static func decode(_ arguments: [[UInt8]]) throws(UsageError) -> [String] {
        var decoded: [String] = []
        for bytes in arguments {
            guard let text = String(validating: bytes, as: UTF8.self) else {
                throw UsageError("the argument \"\(escaped(bytes))\" is not valid UTF-8 (a name in another encoding): "
                                 + "camrec would change such a file name, so it refuses it; use a UTF-8 name "
                                 + "(e.g. rename the file with convmv)")
            }
            decoded.append(text)
        }
        return decoded
    }

    /// The process's own arguments after the program name, read from `argv` as bytes.
    public static func current() throws(UsageError) -> [String] {
        let count = Int(CommandLine.argc)
        var raw: [[UInt8]] = []
        for index in 1..<max(count, 1) {
            guard let pointer = CommandLine.unsafeArgv[index] else { continue }
            raw.append(Array(UnsafeBufferPointer(start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self),
                                                 count: strlen(pointer))))
        }
        return try decode(raw)
    }

    /// `bytes` as text, each byte that is not part of valid UTF-8 (or is a
    /// control character) written `\xFF`.
    static func escaped(_ bytes: [UInt8]) -> String {
        var text = ""
        var index = 0
        while index < bytes.count {
            let length = sequenceLength(bytes, at: index)
            let control = length == 1 && (bytes[index] < 0x20 || bytes[index] == 0x7F)
            if length > 0, !control, let part = String(validating: bytes[index..<index + length], as: UTF8.self) {
                text += part
                index += length
            } else {
                text += "\\x" + String(bytes[index], radix: 16, uppercase: true).leftPadded(to: 2)
                index += 1
            }
        }
        return text
    }

    /// The length of the UTF-8 sequence its first byte announces (0 for a byte that starts none).
    private static func sequenceLength(_ bytes: [UInt8], at index: Int) -> Int {
        let first = bytes[index]
        let length = first < 0x80 ? 1 : first >> 5 == 0b110 ? 2 : first >> 4 == 0b1110 ? 3 : first >> 3 == 0b11110 ? 4 : 0
        return index + length <= bytes.count ? length : 0
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}

import CamrecCore
import CTesseractShim
#if canImport(Glibc)
import Glibc
#endif

/// libtesseract as camrec finds it: loaded at run time (never linked), its version, and
/// the language models installed. Text recognition asks here before anything else, so that
/// a missing library or model stops with the Debian package to install (exit 69).
public enum TesseractLibrary {
    /// The Debian package of the library.
    public static let package = "libtesseract5"

    /// Why libtesseract cannot be loaded, or nil when it loads.
    public static var libraryProblem: String? {
        var failure: UnsafeMutablePointer<CChar>?
        guard camrec_tesseract_available(&failure) == 0 else { return nil }
        defer { free(failure) }
        return failure.map { String(cString: $0) } ?? "libtesseract.so.5 cannot be loaded"
    }

    /// The loaded library's version ("5.3.0"), nil when it cannot be loaded.
    public static var version: String? {
        camrec_tesseract_version().map { String(cString: $0) }
    }

    /// The folders Tesseract's models may be in, first found first: `TESSDATA_PREFIX` (the
    /// folder itself, or its tessdata folder), then Debian's for Tesseract 5 and 4.
    static func candidateFolders(environment: String? = getenv("TESSDATA_PREFIX").map { String(cString: $0) }) -> [String] {
        var folders: [String] = []
        if let prefix = environment, !prefix.isEmpty {
            let trimmed = prefix.hasSuffix("/") ? String(prefix.dropLast()) : prefix
            folders += [trimmed, trimmed + "/tessdata"]
        }
        return folders + ["/usr/share/tesseract-ocr/5/tessdata", "/usr/share/tesseract-ocr/4.00/tessdata"]
    }

    /// The first folder holding any model, and the languages in it (sorted; `osd`, the
    /// script detector, is not a language). Nil when no folder holds a model.
    public static func installedLanguages() -> (folder: String, languages: [String])? {
        for folder in candidateFolders() {
            guard let directory = opendir(folder) else { continue }
            defer { closedir(directory) }
            var languages: [String] = []
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
                }
                guard name.hasSuffix(".traineddata") else { continue }
                let language = String(name.dropLast(".traineddata".count))
                if language != "osd", !language.isEmpty { languages.append(language) }
            }
            if !languages.isEmpty { return (folder, languages.sorted()) }
        }
        return nil
    }

    /// The Debian package of a language's model: `chi_sim` → tesseract-ocr-chi-sim.
    public static func package(of language: String) -> String {
        "tesseract-ocr-" + String(language.lowercased().map { $0 == "_" ? "-" : $0 })
    }

    /// Loads the library and checks that every one of `languages` has a model; returns
    /// the models' folder. Throws `.unavailable` (69) naming the package to install.
    static func prepare(_ languages: [String]) throws(CamrecError) -> String {
        if let problem = libraryProblem {
            throw CamrecError(.unavailable, "libtesseract cannot be loaded (\(problem)): install it with sudo apt-get install \(package) \(Self.package(of: languages.first ?? "eng"))")
        }
        let installed = installedLanguages()
        let missing = languages.filter { !(installed?.languages.contains($0) ?? false) }
        if let first = missing.first {
            let packages = missing.map(package(of:)).joined(separator: " ")
            let have = installed.map { " (installed: \($0.languages.joined(separator: ", ")))" } ?? ""
            throw CamrecError(.unavailable, "no Tesseract model for '\(first)'\(have): install it with sudo apt-get install \(packages)")
        }
        return installed?.folder ?? candidateFolders()[0]
    }
}

import FoundationEssentials

/// A pipeline in gst-launch-1.0 syntax with `{placeholders}`, read from `pipelines/`.
///
/// The templates are compiled into the binary (SwiftPM `embedInCode`), so an installed
/// `camrec` finds them from any working directory; `camrec --pipeline FILE` replaces the
/// recording one.
public struct PipelineTemplate: Sendable {
    /// The template text as written (comments included).
    public let text: String
    /// The template without comments, as one line.
    let body: String
    /// The placeholders the template uses, in order of first appearance.
    public let placeholders: [String]

    /// Wraps template text (read once here: a recording renders its template several times).
    public init(text: String) {
        self.text = text
        body = text.split(separator: "\n", omittingEmptySubsequences: true)
            .map { $0.trimmingWhitespace }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
            .joined(separator: " ")
        var names: [String] = []
        var rest = Substring(body)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            let name = String(rest[rest.index(after: open)..<close])
            if !names.contains(name) { names.append(name) }
            rest = rest[rest.index(after: close)...]
        }
        placeholders = names
    }

    /// The built-in recording pipeline (`pipelines/record.pipeline`).
    public static let record = PipelineTemplate(text: String(decoding: PackageResources.record_pipeline, as: UTF8.self))

    /// The built-in pipeline of `camrec preview` (`pipelines/preview.pipeline`).
    public static let preview = PipelineTemplate(text: String(decoding: PackageResources.preview_pipeline, as: UTF8.self))
    /// The built-in pipeline of several cameras on one canvas (`pipelines/compose.pipeline`, `--layout`).
    public static let compose = PipelineTemplate(text: String(decoding: PackageResources.compose_pipeline, as: UTF8.self))

    /// The built-in pipeline of `camrec still` (`pipelines/still.pipeline`).
    public static let still = PipelineTemplate(text: String(decoding: PackageResources.still_pipeline, as: UTF8.self))

    /// Fills every placeholder. A placeholder without a value, or a value for a name the
    /// template does not use, is an error (a custom `--pipeline` that does not fit).
    public func render(_ values: [String: String]) throws(TemplateError) -> String {
        let used = Set(placeholders)
        if let missing = placeholders.first(where: { values[$0] == nil }) {
            throw TemplateError(message: "the pipeline template needs a value for {\(missing)}")
        }
        if let unused = values.keys.sorted().first(where: { !used.contains($0) }) {
            throw TemplateError(message: "the pipeline template has no {\(unused)} placeholder; camrec needs it there")
        }
        var line = body
        for (name, value) in values {
            line = line.replacing("{\(name)}", with: value)
        }
        // Empty placeholders (e.g. no decoder) leave double spaces behind, or one at the end.
        while line.contains("  ") { line = line.replacing("  ", with: " ") }
        while line.hasSuffix(" ") { line.removeLast() }
        return line
    }
}

/// A template that does not fit the values camrec fills in.
public struct TemplateError: Error, Sendable, CustomStringConvertible {
    /// One line saying what is wrong.
    public let message: String
    public var description: String { message }
}

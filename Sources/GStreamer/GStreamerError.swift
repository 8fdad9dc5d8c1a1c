import CGStreamer

/// A failure reported by an element, as carried by an error or warning bus message.
public struct ElementFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// Who reported it: the element's name (e.g. "src") and the element itself, to compare
    /// with one we hold (`failure.source.is(camera)`).
    public var source: MessageSource
    /// The GError domain, e.g. "gst-resource-error-quark".
    public var domain: String
    /// The GError code within its domain.
    public var code: Int
    /// The human message, e.g. "Could not open device '/dev/video0' for reading and writing."
    public var message: String
    /// The debug text, with file, function and often the errno string.
    public var debug: String

    /// A failure from `source`.
    public init(source: MessageSource, domain: String, code: Int, message: String, debug: String) {
        self.source = source
        self.domain = domain
        self.code = code
        self.message = message
        self.debug = debug
    }

    /// A failure from a source known only by name (no object: for values built by hand).
    public init(source: String, domain: String, code: Int, message: String, debug: String) {
        self.init(source: MessageSource(name: source), domain: domain, code: code, message: message, debug: debug)
    }

    /// "source: message".
    public var description: String { "\(source.name): \(message)" }

    /// Whether it is a GstResourceError of this kind.
    public func isResourceError(_ kind: ResourceError) -> Bool {
        resourceError == kind
    }

    /// The GstResourceError kind, when the failure is one.
    public var resourceError: ResourceError? {
        guard domain == "gst-resource-error-quark" else { return nil }
        return ResourceError(rawValue: code)
    }
}

/// GStreamer's resource error codes (GstResourceError), as reported by sources and sinks.
public enum ResourceError: Int, Sendable {
    case failed = 1, tooLazy, notFound, busy, openRead, openWrite, openReadWrite, close, read, write,
         seek, sync, settings, noSpaceLeft, notAuthorized
}

/// Errors from the bindings, each with a message a person can act on.
public enum GStreamerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// gst_init failed.
    case initialization(String)
    /// A pipeline needs an element that no installed plugin provides: its factory name and
    /// what to do (the bindings say how to look; an application may name its package).
    case missingElement(String, hint: String)
    /// A pipeline description could not be parsed.
    case parse(String)
    /// An element refused a state change. An element that failed posted an error about it
    /// on the bus, which says why: the bus's reader finds it there, and
    /// `setStateThrowingPostedError` throws it instead.
    case stateChange(element: String, to: State)
    /// An element posted an error.
    case element(ElementFailure)
    /// An element of that name is not in the bin.
    case noSuchElement(String)
    /// No pad of that name on the element.
    case noSuchPad(element: String, pad: String)
    /// An object has no property of that name, it cannot be written, or the value does not
    /// fit it (wrong kind, out of range, unknown nick); `reason` says which.
    case property(element: String, name: String, reason: String)
    /// Caps text that GStreamer could not parse.
    case invalidCaps(String)
    /// Structure text that GStreamer could not parse.
    case invalidStructure(String)
    /// An object is not of the type a wrapper needs (e.g. `AppSink(element)` of a fakesink),
    /// by GType name.
    case wrongType(object: String, expected: String, actual: String)
    /// Two elements or pads could not be linked (pads as "element:pad").
    case link(source: String, sink: String, reason: String)
    /// A bin refused an element (it has a parent already, or the bin has one of that name).
    case add(element: String, bin: String)
    /// Data was refused on its way into a pipeline: `context` says what was pushed where.
    case flow(FlowResult, context: String)
    /// No element handled a seek to `position` (ns).
    case seek(element: String, position: UInt64)
    /// An object has no signal of that name.
    case signal(object: String, name: String)
    /// GStreamer could not provide an object that should always exist (a new pipeline,
    /// a pipeline's bus).
    case unavailable(String)

    /// The message for a person.
    public var description: String {
        switch self {
        case .initialization(let text): "GStreamer could not be initialised: \(text)"
        case .missingElement(let factory, let hint): "GStreamer element '\(factory)' is missing: \(hint)"
        case .parse(let text): "invalid pipeline: \(text)"
        case .stateChange(let element, let state): "\(element) could not change to \(state)"
        case .element(let failure): failure.description
        case .noSuchElement(let name): "no element named '\(name)' in the pipeline"
        case .noSuchPad(let element, let pad): "element '\(element)' has no pad '\(pad)'"
        case .property(let element, let name, let reason): "\(element).\(name): \(reason)"
        case .invalidCaps(let text): "invalid caps '\(text)'"
        case .invalidStructure(let text): "invalid structure '\(text)'"
        case .wrongType(let object, let expected, let actual): "'\(object)' is a \(actual), not a \(expected)"
        case .link(let source, let sink, let reason): "cannot link \(source) to \(sink): \(reason)"
        case .add(let element, let bin): "cannot add \(element) to \(bin)"
        case .flow(let result, let context): "\(context) (\(result))"
        case .seek(let element, let position): "\(element) refused to seek to \(position) ns"
        case .signal(let object, let name): "'\(object)' has no signal '\(name)'"
        case .unavailable(let what): "GStreamer could not provide \(what)"
        }
    }
}

extension GStreamerError {
    /// How to find out which plugin provides `factory`: the hint of a `.missingElement`
    /// thrown by the bindings.
    public static func lookHint(for factory: String) -> String {
        "install the GStreamer plugin that provides it (gst-inspect-1.0 \(factory) tells whether it is there)"
    }
}

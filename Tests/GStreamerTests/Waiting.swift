import Foundation
@_exported import TestSupport

/// An object a callback captures, to tell (through a weak reference) when the callback
/// itself has been released.
final class Canary: Sendable {}

/// A weak reference to a `Canary`.
final class CanaryWatch: @unchecked Sendable {
    private(set) weak var canary: Canary?
    init(_ canary: Canary) { self.canary = canary }
    var isAlive: Bool { canary != nil }
}

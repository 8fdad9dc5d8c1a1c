@testable import CamrecKit
import Testing

/// The message of the usage error `body` throws, nil when it throws none; an error of
/// another kind or type fails the test.
func refusal<T>(_ body: () throws -> T) -> String? {
    do {
        _ = try body()
        return nil
    } catch let error as CamrecError {
        #expect(error.kind == .usage, "\(error.message)")
        return error.message
    } catch {
        Issue.record("not a CamrecError: \(error)")
        return "\(error)"
    }
}

import Kernel
import Synchronization

/// A value set after construction, to break the cycle between in-memory stores that need each
/// other (the list asks Chat for activity; Chat asks the list for membership).
final class Deferred<Value: Sendable>: Sendable {
    private let storage: Mutex<Value?>

    /// Creates it empty, or already set when there is no cycle to break.
    init(_ value: Value? = nil) { storage = Mutex(value) }

    func set(_ value: Value) { storage.withLock { $0 = value } }

    func get() throws -> Value {
        guard let value = storage.withLock({ $0 }) else { throw AppError(.internal, "service used before the graph finished wiring") }
        return value
    }
}

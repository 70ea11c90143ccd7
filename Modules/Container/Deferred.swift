import Kernel
import Synchronization

/// A value set after construction, to break the cycle between services that need each other
/// (the list asks Chat for activity; Chat asks the list for membership).
final class Deferred<Value: Sendable>: Sendable {
    private let storage = Mutex<Value?>(nil)

    func set(_ value: Value) { storage.withLock { $0 = value } }

    func get() throws -> Value {
        guard let value = storage.withLock({ $0 }) else { throw AppError(.internal, "service used before the container finished wiring") }
        return value
    }
}

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

/// The memory backend's change journal (Chat's store), handed to the stores made before it.
struct DeferredJournal: ChangeJournal {
    let journal = Deferred<any ChangeJournal>()

    func record(_ change: StoreChange, audience: [UserID]) async {
        try? await journal.get().record(change, audience: audience)
    }
}

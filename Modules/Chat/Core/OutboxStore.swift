import Kernel

/// Where this device keeps the messages it could not send yet (a file only its owner reads,
/// per profile and server): the port behind `Outbox`.
public protocol OutboxStore: Sendable {
    /// The kept messages, oldest first.
    func load() throws -> [Message]
    /// Replaces the kept messages.
    func save(_ messages: [Message]) throws
}

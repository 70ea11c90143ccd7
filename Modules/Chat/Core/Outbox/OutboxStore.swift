import Kernel

/// Where this device keeps the messages it could not send yet (a file only its owner reads,
/// per profile and server): the port behind `Outbox`. Several processes (two REPLs of one
/// profile) may share it, so a change is made whole on what is kept at that moment.
public protocol OutboxStore: Sendable {
    /// The kept messages, oldest first.
    func load() throws -> [Outbox.Entry]
    /// Replaces the kept messages with `change` of them, with no other change in between.
    func update(_ change: ([Outbox.Entry]) throws -> [Outbox.Entry]) throws
}

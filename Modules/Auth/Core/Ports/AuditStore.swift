import Foundation
import Kernel

/// Where a server keeps the record of what its operators and admins did: one entry per action,
/// never changed. Memory, SQLite and PostgreSQL implement it.
public protocol AuditStore: Sendable {
    /// Keeps `entry`.
    func record(_ entry: AuditEntry) async throws
    /// The newest `limit` entries, newest first.
    func entries(limit: Int) async throws -> [AuditEntry]
}

/// One action of an operator or admin: who did what to whom, and when. What it names of the
/// subject is an email or an id, never a secret (a code is named by its id).
public struct AuditEntry: Codable, Equatable, Sendable {
    public let at: Date
    /// Who: `operator:USER@HOST` for the server's own command, an account's id for an admin.
    public let actor: String
    /// What, as `area.verb`: `invites.create`, `users.suspend`.
    public let action: String
    /// Whom or what.
    public let subject: String

    /// Creates the entry.
    public init(at: Date, actor: String, action: String, subject: String) {
        self.at = at
        self.actor = actor
        self.action = action
        self.subject = subject
    }
}

extension AuditEntry {
    /// One line for a listing: when, who, what, whom.
    public var line: String { "\(at.formatted(.iso8601))  \(actor)  \(action)  \(subject)" }
}

/// The audit record in memory: the unit tests' `AuditStore`.
public actor InMemoryAuditStore: AuditStore {
    private var kept: [AuditEntry] = []

    /// No entries.
    public init() {}

    public func record(_ entry: AuditEntry) { kept.append(entry) }

    public func entries(limit: Int) -> [AuditEntry] { Array(kept.reversed().prefix(limit)) }
}

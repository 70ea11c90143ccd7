import Foundation
import Kernel

/// An account as an admin sees it: who, since when, and its standing on the server. Never its
/// password, sessions or anything of its conversations.
public struct ManagedAccount: Codable, Equatable, Sendable {
    /// The user.
    public let id: UserID
    /// The account's email, as accounts are keyed.
    public let email: String
    /// When it was made.
    public let createdAt: Date
    /// Since when it is an admin of the server, or `nil`.
    public let adminSince: Date?
    /// Since when it is suspended, or `nil`.
    public let suspendedAt: Date?

    /// Creates the value.
    public init(id: UserID, email: String, createdAt: Date, adminSince: Date?, suspendedAt: Date?) {
        self.id = id
        self.email = email
        self.createdAt = createdAt
        self.adminSince = adminSince
        self.suspendedAt = suspendedAt
    }

    /// The account it is.
    public var account: Account { Account(id: id, email: email) }
}

/// An invitation code as admins list it: its id, uses and expiry (never the code nor its digest).
public struct InviteCode: Codable, Equatable, Sendable {
    /// What names it, to revoke it.
    public let id: String
    /// The sign-ups it admitted at first.
    public let uses: Int
    /// The sign-ups it still admits.
    public let usesLeft: Int
    /// When it stops admitting.
    public let expiresAt: Date
    /// When it was made.
    public let createdAt: Date

    /// Creates the value.
    public init(id: String, uses: Int, usesLeft: Int, expiresAt: Date, createdAt: Date) {
        self.id = id
        self.uses = uses
        self.usesLeft = usesLeft
        self.expiresAt = expiresAt
        self.createdAt = createdAt
    }

}

extension RegistrationCode {
    /// The code as admins see it, without its digest.
    public var listed: InviteCode { InviteCode(id: id, uses: uses, usesLeft: usesLeft, expiresAt: expiresAt, createdAt: createdAt) }
}

extension ManagedAccount {
    /// One line for a listing: email, id, standing and when it was made.
    public var line: String {
        let standing = [adminSince.map { _ in "admin" }, suspendedAt.map { "suspended since \($0.formatted(.iso8601))" }].compactMap { $0 }
        return ([email, id.rawValue] + standing + ["joined \(createdAt.formatted(.iso8601))"]).joined(separator: "  ")
    }
}

extension InviteCode {
    /// One line for a listing at `now`: id, uses left, state.
    public func line(at now: Date) -> String {
        let state = expiresAt <= now ? "expired" : usesLeft == 0 ? "used up" : "expires \(expiresAt.formatted(.iso8601))"
        return "\(id)  \(usesLeft) of \(uses) left  \(state)"
    }
}

import Foundation
import Kernel

/// Where a server keeps its password reset codes: a code's digest, whose account it resets and
/// until when. Redeeming is one atomic step that removes the code, so a code works once however
/// many try it at once, on one instance or many. Memory, SQLite and PostgreSQL implement it.
public protocol ResetCodeStore: Sendable {
    /// Keeps the code of `digest` for account `user` until `expiresAt`, in place of any code the
    /// account had.
    func replace(_ digest: String, for user: UserID, until expiresAt: Date) async throws
    /// Removes the code of `digest` and says whose it was, if it had not expired at `now`; `nil`
    /// for an unknown, used or expired code.
    func redeem(_ digest: String, at now: Date) async throws -> UserID?
}

import Foundation
import Kernel

/// Who may look after a server and what they are told: written once for the operator's command
/// on the store, the admin API and `messageai admin`.
public enum AdminRules {
    /// Most accounts or audit entries on one page.
    public static let maxPage = 1_000
    /// Accounts or entries on a page unless asked otherwise.
    public static let defaultPage = 50

    /// A caller who is not an admin: the same answer whatever they asked.
    public static let notAdmin = AppError(.forbidden, "that needs an admin of this server")
    /// Revoking the only admin: there must always be one.
    public static let lastAdmin = AppError(
        .conflict, "that is the server's last admin: grant another first (messageai-server admin grant EMAIL)")
    /// An email no account has.
    public static let noAccount = AppError(.notFound, "no account has that email or id")

    /// What deactivating an account does, as both admin commands say it.
    public static let deactivateSummary =
        "Deactivate an account for good: its messages deleted for everyone, its profile \"Deleted user\", its email free. (suspend can be undone; this cannot.)"

    /// Most sign-ups one code admits, and the longest it lasts, when a member who is not an
    /// admin makes it (`registration.invitesBy: everyone`).
    public static let memberInviteUses = 5, memberInviteLifetime: TimeInterval = 7 * 86_400

    /// A member's code past those bounds.
    public static let memberInviteTooBig = AppError(
        .invalidInput, "a code you make admits at most \(memberInviteUses) sign-ups and lasts at most 7 days")

    /// A page size, checked.
    /// - Throws: `.invalidInput` outside 1…1,000.
    public static func page(_ limit: Int) throws -> Int {
        guard (1...maxPage).contains(limit) else { throw AppError(.invalidInput, "a page holds 1 to \(maxPage)") }
        return limit
    }

    /// How the audit record names an admin acting through the API.
    static func actor(_ admin: ManagedAccount) -> String { "admin:\(admin.email)" }

    /// How the audit record names an account acted on: its email and id.
    static func subject(_ account: ManagedAccount) -> String { "\(account.email) (\(account.id))" }
}

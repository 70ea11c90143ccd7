import Foundation
import Kernel

/// Who may make an account on a server (`registration.mode`): anyone (`open`), whoever brings
/// an invitation code (`invite`), or nobody (`closed`). A local backend is always open: its
/// accounts are its person's.
public enum RegistrationMode: String, Sendable, CaseIterable {
    case open, invite, closed
}

/// How a sign-up is admitted: the mode, and the codes an `invite` server redeems.
public struct Registration: Sendable {
    public let mode: RegistrationMode
    public let codes: (any RegistrationCodeStore)?

    /// `mode`, redeeming codes kept in `codes`.
    public init(mode: RegistrationMode, codes: (any RegistrationCodeStore)?) {
        self.mode = mode
        self.codes = codes
    }

    /// Anyone may sign up.
    public static let open = Registration(mode: .open, codes: nil)
}

/// An invitation code as a server keeps it: its digest, never the code, how many sign-ups it
/// still admits and until when. `id` names it in listings and to revoke it.
public struct RegistrationCode: Equatable, Sendable {
    public let id: String
    public let digest: String
    public let uses: Int
    public let usesLeft: Int
    public let expiresAt: Date
    public let createdAt: Date

    /// Creates the value.
    public init(id: String, digest: String, uses: Int, usesLeft: Int, expiresAt: Date, createdAt: Date) {
        self.id = id
        self.digest = digest
        self.uses = uses
        self.usesLeft = usesLeft
        self.expiresAt = expiresAt
        self.createdAt = createdAt
    }
}

/// The rules of invitation codes, for every store: what a code is, how long and how often it
/// may be used, and what a refused sign-up is told.
public enum RegistrationRules {
    /// The most sign-ups one code admits, and the longest it lasts.
    public static let maxUses = 10_000, maxLifetime: TimeInterval = 365 * 86_400

    /// A new code: `prefix` and 32 hex digits, 128 of a session token's random bits.
    static func newCode(prefix: String = "mai-") -> String { prefix + SessionToken.generate().prefix(32) }

    /// A code's new record: `uses` sign-ups until `lifetime` from `now`, kept as `digest`.
    /// - Throws: `.invalidInput` for uses outside 1…10,000 or a lifetime outside a minute to a year.
    static func record(digest: String, uses: Int, lifetime: TimeInterval, now: Date) throws -> RegistrationCode {
        guard (1...maxUses).contains(uses) else { throw AppError(.invalidInput, "uses must be from 1 to \(maxUses)") }
        guard (60...maxLifetime).contains(lifetime) else { throw AppError(.invalidInput, "a code lasts from a minute to 365 days") }
        let id = String(SessionToken.generate().prefix(8))
        return RegistrationCode(id: id, digest: digest, uses: uses, usesLeft: uses, expiresAt: now + lifetime, createdAt: now)
    }

    /// Makes a new code of `uses` sign-ups lasting `lifetime` and keeps its digest (as `digest`
    /// gives it) in `codes`; the code itself is returned once, to be shown once.
    public static func create(
        uses: Int, lifetime: TimeInterval, in codes: any RegistrationCodeStore, digest: any TokenDigest, now: Date
    ) async throws -> (code: String, record: RegistrationCode) {
        let code = newCode()
        let record = try record(digest: digest.digest(code), uses: uses, lifetime: lifetime, now: now)
        try await codes.add(record)
        return (code, record)
    }

    /// A lifetime as people write it: `30m`, `12h`, `7d`.
    /// - Throws: `.invalidInput` for anything else.
    public static func lifetime(_ text: String) throws -> TimeInterval {
        let units: [Character: TimeInterval] = ["m": 60, "h": 3_600, "d": 86_400]
        guard let unit = text.last.flatMap({ units[$0] }), let count = Int(text.dropLast()), count > 0, count <= 525_600 else {
            throw AppError(.invalidInput, "a lifetime is a number and m, h or d: 30m, 12h, 7d")
        }
        return TimeInterval(count) * unit
    }

    /// A code unknown, expired, used up or revoked: one answer for all, so that a guess learns nothing.
    public static let refused = AppError(.forbidden, "that invitation code is not valid (unknown, expired or used up)")
    /// A sign-up without a code on an `invite` server.
    public static let inviteOnly = AppError(
        .forbidden, "this server admits new accounts by invitation only: sign up with an invitation code (--invite CODE)")
    /// A sign-up on a `closed` server.
    public static let closed = AppError(.forbidden, "this server is not taking new accounts")
}

import Foundation
import Kernel
import PostgresNIO
import PostgresStore
import Profile

/// One caller's view of the profiles in a PostgreSQL database.
public struct PostgresProfileService: ProfileService {
    private let database: PGDatabase
    private let caller: Caller
    private let budget: UsageBudget
    private let renameAudience: (any RenameAudience)?

    /// Creates the service for `caller` over an open database; a new name is an event for whom
    /// `renameAudience` says (without one, the caller alone); renames and look-ups of people
    /// spend from `budget`.
    public init(database: PGDatabase, caller: Caller, renameAudience: (any RenameAudience)? = nil, budget: UsageBudget = .unlimited) {
        self.database = database
        self.caller = caller
        self.renameAudience = renameAudience
        self.budget = budget
    }

    public func myProfile() async throws -> Profile {
        let me = try await caller.id()
        return try Self.own(try await database.query("SELECT \(unescaped: Self.columns) FROM profiles WHERE id = \(me.rawValue)"))
    }

    public func profile(matching idOrEmail: String) async throws -> Profile {
        let me = try await caller.id()
        try budget.spend(.lookup, by: me)
        let keys = ProfileRules.lookupKeys(idOrEmail)
        let found = try await database.query(
            """
            SELECT \(unescaped: Self.columns) FROM profiles WHERE id = \(keys.id.rawValue) OR email = \(keys.email)
            ORDER BY id = \(keys.id.rawValue) DESC LIMIT 1
            """
        ).first.map(Self.profile)
        guard let found else { throw ProfileRules.noUser(idOrEmail) }
        return ProfileRules.seen(found, by: me, asking: idOrEmail)
    }

    /// Reads, checks and writes in one transaction (the row locked), so that two edits of
    /// different fields both survive.
    public func updateMyProfile(displayName: String?, status: String?) async throws -> Profile {
        let me = try await caller.id()
        // Asked before the write: a name that does not change costs the question, not the event.
        let audience = displayName == nil ? [me] : try await renameAudience?.audience(ofRenamed: me) ?? [me]
        let budget = budget
        return try await database.write { transaction in
            let old = try Self.own(
                try await transaction.query("SELECT \(unescaped: Self.columns) FROM profiles WHERE id = \(me.rawValue) FOR UPDATE"))
            let profile = try ProfileRules.edited(old, displayName: displayName, status: status)
            try await transaction.query(
                """
                UPDATE profiles SET display_name = \(profile.displayName), name_key = \(profile.displayName.lowercased()), status = \(profile.status)
                WHERE id = \(profile.id.rawValue)
                """)
            if profile.displayName != old.displayName {
                try budget.spend(.rename, by: me)
                try await PostgresChangeLog.record(.profileRenamed(me, to: profile.displayName), audience: audience, transaction)
            }
            return profile
        }
    }

    public func search(_ query: String, limit: Int) async throws -> [Profile] {
        let me = try await caller.id()
        let prefix = try Validation.searchPrefix(query)
        try ProfileRules.checkSearchLimit(limit)
        try budget.spend(.lookup, by: me)
        return try await database.query(
            """
            SELECT \(unescaped: Self.columns) FROM profiles WHERE starts_with(name_key, \(prefix)) OR email = \(prefix)
            ORDER BY name_key, id LIMIT \(limit)
            """
        ).map(Self.profile).map { ProfileRules.seen($0, by: me, asking: prefix) }
    }

    public func displayNames(of ids: [UserID]) async throws -> [UserID: String] {
        _ = try await caller.id()
        return try await PostgresProfileRegistry(database: database).displayNames(of: ids)
    }

    /// The caller's own profile, the one row of `rows`.
    private static func own(_ rows: [PostgresRow]) throws -> Profile {
        guard let row = rows.first else { throw ProfileRules.noOwnProfile }
        return try profile(row)
    }

    private static let columns = "id, email, display_name, status"

    private static func profile(_ row: PostgresRow) throws -> Profile {
        let (id, email, displayName, status) = try row.decode((String, String, String, String).self)
        return Profile(id: UserID(id), email: email, displayName: displayName, status: status)
    }
}

import Foundation
import GRDB
import Kernel
import Profile
import SQLStore

/// One caller's view of the profiles in the SQLite database.
public struct SQLProfileService: ProfileService {
    private let database: SQLDatabase
    private let caller: Caller
    private let budget: UsageBudget
    private let renameAudience: (any RenameAudience)?

    /// Creates the service for `caller` over an open database; a new name is an event for whom
    /// `renameAudience` says (without one, the caller alone); renames and look-ups of people
    /// spend from `budget`.
    public init(database: SQLDatabase, caller: Caller, renameAudience: (any RenameAudience)? = nil, budget: UsageBudget = .unlimited) {
        self.database = database
        self.caller = caller
        self.renameAudience = renameAudience
        self.budget = budget
    }

    public func myProfile() async throws -> Profile {
        let me = try await caller.id()
        return try await database.read { db in try Self.own(me, db) }
    }

    public func profile(matching idOrEmail: String) async throws -> Profile {
        let me = try await caller.id()
        try budget.spend(.lookup, by: me)
        let keys = ProfileRules.lookupKeys(idOrEmail)
        let found = try await database.read { db in
            try Row.fetchOne(
                db, sql: "SELECT \(Self.columns) FROM profiles WHERE id = ? OR email = ? ORDER BY id = ? DESC LIMIT 1",
                arguments: [keys.id.rawValue, keys.email, keys.id.rawValue]
            ).map(Self.profile)
        }
        guard let found else { throw ProfileRules.noUser(idOrEmail) }
        return ProfileRules.seen(found, by: me, asking: idOrEmail)
    }

    /// Reads, checks and writes in one transaction, so that two edits of different fields both survive.
    public func updateMyProfile(displayName: String?, status: String?) async throws -> Profile {
        let me = try await caller.id()
        // Asked before the write: a name that does not change costs the question, not the event.
        let audience = displayName == nil ? [me] : try await renameAudience?.audience(ofRenamed: me) ?? [me]
        return try await database.write { db in
            let old = try Self.own(me, db)
            let profile = try ProfileRules.edited(old, displayName: displayName, status: status)
            try db.execute(
                sql: "UPDATE profiles SET display_name = ?, name_key = ?, status = ? WHERE id = ?",
                arguments: [profile.displayName, profile.displayName.lowercased(), profile.status, profile.id.rawValue])
            if profile.displayName != old.displayName {
                try budget.spend(.rename, by: me)
                try SQLChangeLog.record(.profileRenamed(me, to: profile.displayName), audience: audience, db)
            }
            return profile
        }
    }

    public func search(_ query: String, limit: Int) async throws -> [Profile] {
        let me = try await caller.id()
        let prefix = try Validation.searchPrefix(query)
        try ProfileRules.checkSearchLimit(limit)
        try budget.spend(.lookup, by: me)
        return try await database.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT \(Self.columns) FROM profiles
                    WHERE substr(name_key, 1, length(:prefix)) = :prefix OR email = :prefix
                    ORDER BY name_key, id LIMIT :limit
                    """, arguments: ["prefix": prefix, "limit": limit]
            ).map(Self.profile)
        }.map { ProfileRules.seen($0, by: me, asking: prefix) }
    }

    public func displayNames(of ids: [UserID]) async throws -> [UserID: String] {
        _ = try await caller.id()
        return try await SQLProfileRegistry(database: database).displayNames(of: ids)
    }

    private static func own(_ id: UserID, _ db: Database) throws -> Profile {
        guard let profile = try Row.fetchOne(db, sql: "SELECT \(columns) FROM profiles WHERE id = ?", arguments: [id.rawValue]).map(profile) else {
            throw ProfileRules.noOwnProfile
        }
        return profile
    }

    private static let columns = "id, email, display_name, status"

    private static func profile(_ row: Row) throws -> Profile {
        Profile(
            id: UserID(try row.decode(String.self, atIndex: 0)), email: try row.decode(String.self, atIndex: 1),
            displayName: try row.decode(atIndex: 2), status: try row.decode(atIndex: 3))
    }
}

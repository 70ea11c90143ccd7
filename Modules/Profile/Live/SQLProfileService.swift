import Foundation
import GRDB
import Kernel
import Profile
import SQLStore

/// Profiles in the SQLite database.
public struct SQLProfileService: ProfileService, ProfileRegistry {
    private let database: SQLDatabase
    private let sessions: any SessionStore

    /// Creates the service over an open database.
    public init(database: SQLDatabase, sessions: any SessionStore) {
        self.database = database
        self.sessions = sessions
    }

    public func createProfile(_ profile: Profile) async throws {
        let inserted = try await database.write { db in
            try db.execute(sql: """
                INSERT INTO profiles (id, email, display_name, name_key, status) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING
                """, arguments: [profile.id.rawValue, profile.email, profile.displayName, profile.displayName.lowercased(), profile.status])
            return db.changesCount > 0
        }
        guard inserted else { throw AppError(.conflict, "a profile for \(profile.email) already exists") }
    }

    public func myProfile() async throws -> Profile {
        let me = try sessions.requireSession().userID
        guard let profile = try await fetch(where: "id = ?", me.rawValue) else { throw AppError.notSignedIn }
        return profile
    }

    public func profile(matching idOrEmail: String) async throws -> Profile {
        _ = try sessions.requireSession()
        let key = idOrEmail.trimmingCharacters(in: .whitespaces)
        if let profile = try await fetch(where: "id = ? OR email = ?", key, key.lowercased()) { return profile }
        throw AppError(.notFound, "no user '\(idOrEmail)'")
    }

    public func updateMyProfile(displayName: String?, status: String?) async throws -> Profile {
        var profile = try await myProfile()
        if let displayName { profile.displayName = try Validation.displayName(displayName) }
        if let status { profile.status = try Validation.status(status) }
        let saved = profile
        try await database.write { db in
            try db.execute(sql: "UPDATE profiles SET display_name = ?, name_key = ?, status = ? WHERE id = ?",
                           arguments: [saved.displayName, saved.displayName.lowercased(), saved.status, saved.id.rawValue])
        }
        return saved
    }

    public func search(_ query: String, limit: Int) async throws -> [Profile] {
        _ = try sessions.requireSession()
        let prefix = try Validation.searchPrefix(query)
        return try await database.read { db in
            try Row.fetchAll(db, sql: """
                SELECT * FROM profiles
                WHERE substr(name_key, 1, length(:prefix)) = :prefix OR substr(email, 1, length(:prefix)) = :prefix
                ORDER BY name_key, id LIMIT :limit
                """, arguments: ["prefix": prefix, "limit": max(limit, 0)]).map(Self.profile)
        }
    }

    public func displayNames(of ids: [UserID]) async throws -> [UserID: String] {
        guard !ids.isEmpty else { return [:] }
        let list = try JSONIDs.encode(ids)
        return try await database.read { db in
            var names: [UserID: String] = [:]
            names.reserveCapacity(ids.count)
            let rows = try Row.fetchCursor(db, sql: "SELECT p.id, p.display_name FROM json_each(?) ids JOIN profiles p ON p.id = ids.value",
                                           arguments: [list])
            while let row = try rows.next() { names[UserID(row[0] as String)] = row[1] }
            return names
        }
    }

    private func fetch(where condition: String, _ arguments: String...) async throws -> Profile? {
        try await database.read { [arguments] db in
            try Row.fetchOne(db, sql: "SELECT * FROM profiles WHERE \(condition)", arguments: StatementArguments(arguments)).map(Self.profile)
        }
    }

    private static func profile(_ row: Row) -> Profile {
        Profile(id: UserID(row["id"] as String), email: row["email"], displayName: row["display_name"], status: row["status"])
    }
}

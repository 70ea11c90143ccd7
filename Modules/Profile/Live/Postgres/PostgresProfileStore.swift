import Foundation
import Kernel
import PostgresNIO
import PostgresStore
import Profile

/// The profiles of a PostgreSQL database (`ProfileStore`).
public struct PostgresProfileStore: ProfileStore {
    private let database: PGDatabase

    /// The store of an open database.
    public init(database: PGDatabase) { self.database = database }

    public func profile(_ id: UserID) async throws -> Profile? {
        try await database.query("SELECT \(unescaped: Self.columns) FROM profiles WHERE id = \(id.rawValue)").first.map(Self.profile)
    }

    public func profile(matching keys: (id: UserID, email: String)) async throws -> Profile? {
        try await database.query(
            """
            SELECT \(unescaped: Self.columns) FROM profiles WHERE id = \(keys.id.rawValue) OR email = \(keys.email)
            ORDER BY id = \(keys.id.rawValue) DESC LIMIT 1
            """
        ).first.map(Self.profile)
    }

    public func profiles(startingWith prefix: String, limit: Int) async throws -> [Profile] {
        try await database.query(
            """
            SELECT \(unescaped: Self.columns) FROM profiles WHERE starts_with(name_key, \(prefix)) OR email = \(prefix)
            ORDER BY name_key, id LIMIT \(limit)
            """
        ).map(Self.profile)
    }

    /// The row is locked (`FOR UPDATE`) from the read to the commit.
    public func update(_ id: UserID, _ edit: @escaping @Sendable (Profile) throws -> ProfileEdit) async throws -> Profile? {
        try await database.write { transaction in
            guard
                let old = try await transaction.query("SELECT \(unescaped: Self.columns) FROM profiles WHERE id = \(id.rawValue) FOR UPDATE")
                    .first.map(Self.stored)
            else { return nil }
            let edited = try edit(old)
            let profile = edited.profile
            try await transaction.query(
                """
                UPDATE profiles SET display_name = \(profile.displayName), name_key = \(profile.displayName.lowercased()), status = \(profile.status)
                WHERE id = \(profile.id.rawValue)
                """)
            if let event = edited.event { try await PostgresChangeLog.record(event.change, audience: event.audience, transaction) }
            return profile
        }
    }

    public func displayNames(of ids: [UserID]) async throws -> [UserID: String] {
        try await PostgresProfileRegistry(database: database).displayNames(of: ids)
    }

    private static let columns = "id, email, display_name, status, suspended"

    /// A row's profile as others see it (`ProfileRules.shownName`).
    private static func profile(_ row: PostgresRow) throws -> Profile {
        let (id, email, displayName, status, suspended) = try row.decode((String, String, String, String, Bool).self)
        return ProfileRules.shown(Profile(id: UserID(id), email: email, displayName: displayName, status: status), suspended: suspended)
    }

    /// A row's profile as stored, for an edit.
    private static func stored(_ row: PostgresRow) throws -> Profile {
        let (id, email, displayName, status, _) = try row.decode((String, String, String, String, Bool).self)
        return Profile(id: UserID(id), email: email, displayName: displayName, status: status)
    }
}

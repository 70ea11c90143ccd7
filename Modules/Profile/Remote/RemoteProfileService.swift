import Kernel
import Profile
import ProfileAPI
import RemoteClient

/// One caller's profiles on the MessageAI server.
public struct RemoteProfileService: ProfileService {
    private let connection: RemoteConnection
    private let caller: Caller

    /// Creates the service for `caller` over the process's connection.
    public init(connection: RemoteConnection, caller: Caller) {
        self.connection = connection
        self.caller = caller
    }

    public func myProfile() async throws -> Profile {
        try await connection.call(ProfileAPI.mine, body: NoContent(), as: caller)
    }

    public func profile(matching idOrEmail: String) async throws -> Profile {
        try await connection.call(ProfileAPI.lookup, query: [ProfileAPI.Query.idOrEmail: idOrEmail], body: NoContent(), as: caller)
    }

    public func updateMyProfile(displayName: String?, status: String?) async throws -> Profile {
        try await connection.call(ProfileAPI.edit, body: ProfileEdit(displayName: displayName, status: status), as: caller)
    }

    public func search(_ query: String, limit: Int) async throws -> [Profile] {
        try ProfileRules.checkSearchLimit(limit)
        return try await connection.call(
            ProfileAPI.search, query: [ProfileAPI.Query.prefix: query, ProfileAPI.Query.searchLimit: String(limit)], body: NoContent(), as: caller
        ).profiles
    }

    public func displayNames(of ids: [UserID]) async throws -> [UserID: String] {
        var names: [UserID: String] = [:]
        for start in stride(from: 0, to: ids.count, by: NameQuery.maxIDs) {
            let part = Array(ids[start..<min(start + NameQuery.maxIDs, ids.count)])
            names.merge(try await connection.call(ProfileAPI.names, body: NameQuery(part), as: caller).byUser) { first, _ in first }
        }
        return names
    }
}

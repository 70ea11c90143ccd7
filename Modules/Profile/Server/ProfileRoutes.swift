import Kernel
import Profile
import ProfileAPI
import ServerSupport

/// Profile's routes, each answered by the caller's `ProfileService`.
public struct ProfileRoutes: Sendable {
    private let service: @Sendable (Caller) -> any ProfileService

    /// Creates the routes; `service` builds the profile service of a caller.
    public init(service: @escaping @Sendable (Caller) -> any ProfileService) { self.service = service }

    /// Registers every Profile endpoint.
    public func add(to routes: APIRoutes) {
        let service = service
        routes.add(ProfileAPI.mine) { call in try await service(call.caller).myProfile() }
        routes.add(ProfileAPI.edit) { call in
            try await service(call.caller).updateMyProfile(displayName: call.body.displayName, status: call.body.status)
        }
        routes.add(ProfileAPI.lookup) { call in try await service(call.caller).profile(matching: try Self.required("q", of: call)) }
        routes.add(ProfileAPI.search) { call in
            let limit = try call.query("limit", in: 1...ProfileRules.maxSearchResults, default: ProfileAPI.defaultSearchLimit)
            return ProfileList(try await service(call.caller).search(try Self.required("q", of: call), limit: limit))
        }
        routes.add(ProfileAPI.names) { call in DisplayNames(try await service(call.caller).displayNames(of: try call.atMost(NameQuery.maxIDs, call.body.ids, field: "ids"))) }
    }

    private static func required<Body>(_ name: String, of call: APICall<Body>) throws -> String {
        guard let value = call.query(name) else { throw AppError(.invalidInput, "the query parameter \(name) is missing") }
        return value
    }
}

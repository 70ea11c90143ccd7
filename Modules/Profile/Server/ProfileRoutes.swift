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
        routes.add(ProfileAPI.lookup) { call in try await service(call.caller).profile(matching: try call.required(ProfileAPI.Query.idOrEmail)) }
        routes.add(ProfileAPI.search) { call in
            let limit = try call.query(ProfileAPI.Query.searchLimit, default: ProfileAPI.defaultSearchLimit)
            return ProfileList(try await service(call.caller).search(try call.required(ProfileAPI.Query.prefix), limit: limit))
        }
        routes.add(ProfileAPI.names) { call in
            DisplayNames(try await service(call.caller).displayNames(of: try call.atMost(NameQuery.maxIDs, call.body.ids, field: "ids")))
        }
    }
}

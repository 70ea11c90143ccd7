import Kernel
import Files
import FilesAPI
import ServerSupport

/// Files's routes, each answered by the caller's `FilesService`, for the server to add with
/// the other features' (`ServerRoutes`) once the feature is served. Each call should spend from
/// the caller's budget (`UsageBudget`) before the feature serves strangers.
public struct FilesRoutes: Sendable {
    private let service: @Sendable (Caller) -> any FilesService

    /// Creates the routes; `service` builds the files service of a caller.
    public init(service: @escaping @Sendable (Caller) -> any FilesService) { self.service = service }

    /// Registers every Files endpoint.
    public func add(to routes: APIRoutes) {
        let service = service
        routes.add(FilesAPI.items) { call in FilesItems(try await service(call.caller).items()) }
        routes.add(FilesAPI.add) { call in try await service(call.caller).add(title: call.body.title) }
    }
}

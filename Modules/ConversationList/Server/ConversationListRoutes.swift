import ConversationList
import ConversationListAPI
import Kernel
import ServerSupport

/// ConversationList's routes and its live event, each answered by the caller's
/// `ConversationListService`.
public struct ConversationListRoutes: Sendable {
    private let service: @Sendable (Caller) -> any ConversationListService

    /// Creates the routes; `service` builds the conversation list service of a caller.
    public init(service: @escaping @Sendable (Caller) -> any ConversationListService) { self.service = service }

    /// Registers every ConversationList endpoint.
    public func add(to routes: APIRoutes) {
        let service = service
        routes.add(ConversationListAPI.list) { call in ConversationListReply(try await service(call.caller).conversations()) }
        routes.add(ConversationListAPI.direct) { call in try await service(call.caller).startDirect(with: call.body.userID) }
        routes.add(ConversationListAPI.group) { call in
            try await service(call.caller).createGroup(title: call.body.title,
                                                       memberIDs: try call.atMost(GroupRequest.maxMembers, call.body.memberIDs, field: "memberIDs"))
        }
    }
}

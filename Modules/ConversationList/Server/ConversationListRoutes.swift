import ConversationList
import ConversationListAPI
import Kernel
import ServerSupport

/// ConversationList's routes, each answered by the caller's `ConversationListService`.
public struct ConversationListRoutes: Sendable {
    private let service: @Sendable (Caller) -> any ConversationListService

    /// Creates the routes; `service` builds the conversation list service of a caller.
    public init(service: @escaping @Sendable (Caller) -> any ConversationListService) { self.service = service }

    /// Registers every ConversationList endpoint.
    public func add(to routes: APIRoutes) {
        let service = service
        routes.add(ConversationListAPI.list) { call in
            let limit = try call.query(ConversationListAPI.Query.pageLimit, default: ConversationRules.defaultPage)
            let after: ConversationID? = try call.query(ConversationListAPI.Query.after).map { try Validation.identifier($0, field: "after") }
            return ConversationListReply(try await service(call.caller).conversations(limit: limit, after: after))
        }
        routes.add(ConversationListAPI.direct) { call in try await service(call.caller).startDirect(with: call.body.userID) }
        routes.add(ConversationListAPI.group) { call in
            try await service(call.caller).createGroup(
                title: call.body.title,
                memberIDs: try call.atMost(GroupRequest.maxMembers, call.body.memberIDs, field: "memberIDs"))
        }
        routes.add(ConversationListAPI.leave) { call in
            try await service(call.caller).leave(call.path.conversation)
            return NoContent()
        }
        routes.add(ConversationListAPI.invitations) { call in InvitationList(try await service(call.caller).invitations()) }
        routes.add(ConversationListAPI.accept) { call in try await service(call.caller).accept(call.path.conversation) }
        routes.add(ConversationListAPI.decline) { call in
            try await service(call.caller).decline(call.path.conversation)
            return NoContent()
        }
        routes.add(ConversationListAPI.blocks) { call in BlockList(try await service(call.caller).blockedUsers()) }
        routes.add(ConversationListAPI.block) { call in
            try await service(call.caller).block(call.path.user)
            return NoContent()
        }
        routes.add(ConversationListAPI.notifications) { call in
            try await service(call.caller).chooseNotifications(call.body.level, until: call.body.until, in: call.path.conversation)
            return NoContent()
        }
        routes.add(ConversationListAPI.unblock) { call in
            try await service(call.caller).unblock(call.path.user)
            return NoContent()
        }
    }
}

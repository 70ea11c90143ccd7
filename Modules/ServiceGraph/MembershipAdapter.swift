import Chat
import ConversationList
import Kernel

/// Chat's membership checks ask the list's directory.
struct MembershipAdapter: ConversationMembership {
    let directory: any ConversationDirectory

    nonisolated(nonsending) func members(of conversationID: ConversationID) async throws -> [UserID]? {
        try await directory.members(of: conversationID)
    }

}

import ConversationList
import Kernel

/// ConversationList's wire contract.
public enum ConversationListAPI {
    /// The caller's conversations, most recent activity first.
    public static let list = Endpoint<NoContent, ConversationListReply>(.get, "/v1/conversations", "The signed-in user's conversations, most recent first")
    /// The one-to-one conversation with a user, created when there is none.
    public static let direct = Endpoint<DirectRequest, ConversationSummary>(
        .post, "/v1/conversations/direct", "The one-to-one conversation with a user, created if there is none")
    /// Creates a group.
    public static let group = Endpoint<GroupRequest, ConversationSummary>(
        .post, "/v1/conversations/groups", "Create a group; the caller is always a member", successStatus: 201)

    /// Every ConversationList endpoint.
    public static let endpoints = [list.spec, direct.spec, group.spec]
}

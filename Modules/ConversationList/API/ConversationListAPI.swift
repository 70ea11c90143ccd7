import ConversationList
import Kernel

/// ConversationList's wire contract: the list, a page at a time; starting conversations;
/// invitations and their answers; leaving; blocking.
public enum ConversationListAPI {
    /// A page of the caller's conversations, most recent activity first.
    public static let list = Endpoint<NoContent, ConversationListReply, PathParameters.None>(
        .get, "/v1/conversations", "A page of the signed-in user's conversations, most recent first",
        query: [Query.pageLimit, Query.after])
    /// The one-to-one conversation with a user, created when there is none.
    public static let direct = Endpoint<DirectRequest, ConversationSummary, PathParameters.None>(
        .post, "/v1/conversations/direct", "The one-to-one conversation with a user, created if there is none (they are invited unless they accept the caller)")
    /// Creates a group.
    public static let group = Endpoint<GroupRequest, ConversationSummary, PathParameters.None>(
        .post, "/v1/conversations/groups", "Create a group; the caller is a member, the others members or invited", successStatus: 201)
    /// Leaves a conversation.
    public static let leave = Endpoint<NoContent, NoContent, PathParameters.Conversation>(
        .post, "/v1/conversations/{conversation}/leave", "Leave a conversation", successStatus: 204)
    /// The caller's waiting invitations.
    public static let invitations = Endpoint<NoContent, InvitationList, PathParameters.None>(
        .get, "/v1/invitations", "The signed-in user's waiting invitations, newest first")
    /// Accepts an invitation.
    public static let accept = Endpoint<NoContent, ConversationSummary, PathParameters.Conversation>(
        .post, "/v1/invitations/{conversation}/accept", "Accept an invitation: become a member")
    /// Declines an invitation.
    public static let decline = Endpoint<NoContent, NoContent, PathParameters.Conversation>(
        .post, "/v1/invitations/{conversation}/decline", "Decline an invitation", successStatus: 204)
    /// The people the caller has blocked.
    public static let blocks = Endpoint<NoContent, BlockList, PathParameters.None>(.get, "/v1/blocks", "The people the signed-in user has blocked")
    /// Blocks a person.
    public static let block = Endpoint<NoContent, NoContent, PathParameters.User>(.put, "/v1/blocks/{user}", "Block a person", successStatus: 204)
    /// Unblocks a person.
    public static let unblock = Endpoint<NoContent, NoContent, PathParameters.User>(.delete, "/v1/blocks/{user}", "Unblock a person", successStatus: 204)

    /// The query parameters ConversationList's endpoints read.
    public enum Query {
        /// Rows on a page of the list.
        public static let pageLimit = QueryParameter("limit", .integer(1...ConversationRules.maxPage), "rows on the page (default 50)")
        /// The conversation a page comes after.
        public static let after = QueryParameter("after", .identifier, "the id of the conversation the page comes after")
    }

    /// Every ConversationList endpoint.
    public static let endpoints = [list.spec, direct.spec, group.spec, leave.spec, invitations.spec, accept.spec, decline.spec,
                                   blocks.spec, block.spec, unblock.spec]
}

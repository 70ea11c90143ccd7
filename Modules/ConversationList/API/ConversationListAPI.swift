import ConversationList
import Foundation
import Kernel

/// ConversationList's wire contract: the list, a page at a time; starting conversations;
/// invitations and their answers; leaving; blocking.
/// The bodies its endpoints carry, and the wire schemas of its models, follow it in this file.
public enum ConversationListAPI {
    /// A page of the caller's conversations, most recent activity first.
    public static let list = Endpoint<NoContent, ConversationListReply, PathParameters.None>(
        .get, "/v1/conversations", "A page of the signed-in user's conversations, most recent first",
        query: [Query.pageLimit, Query.after])
    /// The one-to-one conversation with a user, created when there is none.
    public static let direct = Endpoint<DirectRequest, ConversationSummary, PathParameters.None>(
        .post, "/v1/conversations/direct",
        "The one-to-one conversation with a user, created if there is none (they are invited unless they accept the caller; notInvited says when they are not)"
    )
    /// Creates a group.
    public static let group = Endpoint<GroupRequest, ConversationSummary, PathParameters.None>(
        .post, "/v1/conversations/groups", "Create a group; the caller is a member, the others members or invited (notInvited: who was not, and why)",
        successStatus: 201)
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
    public static let unblock = Endpoint<NoContent, NoContent, PathParameters.User>(
        .delete, "/v1/blocks/{user}", "Unblock a person", successStatus: 204)

    /// Chooses what in a conversation tells the caller.
    public static let notifications = Endpoint<NotificationsRequest, NoContent, PathParameters.Conversation>(
        .put, "/v1/conversations/{conversation}/notifications", "Choose what in a conversation tells you (null: its standard level)",
        successStatus: 204)

    /// The query parameters ConversationList's endpoints read.
    public enum Query {
        /// Rows on a page of the list.
        public static let pageLimit = QueryParameter("limit", .integer(1...ConversationRules.maxPage), "rows on the page (default 50)")
        /// The conversation a page comes after.
        public static let after = QueryParameter("after", .identifier, "the id of the conversation the page comes after")
    }

    /// Every ConversationList endpoint.
    public static let endpoints = [
        list.spec, direct.spec, group.spec, leave.spec, invitations.spec, accept.spec, decline.spec,
        blocks.spec, block.spec, unblock.spec, notifications.spec,
    ]
}

/// The body of a choice of what tells: a level (absent or `null` for the conversation's
/// standard one again), and when it ends (absent: for good).
public struct NotificationsRequest: WireType, Equatable {
    public let level: NotificationLevel?
    public let until: Date?

    /// Creates the body.
    public init(level: NotificationLevel?, until: Date?) {
        self.level = level
        self.until = until
    }

    public static let schema = WireSchema.object(
        [("level", .nullable(.enumeration(NotificationLevel.allCases.map(\.rawValue)))), ("until", .timestamp)], required: [])
}

/// A page of the conversation list.
public struct ConversationListReply: WireType, Equatable {
    /// The rows, most recent activity first.
    public let conversations: [ConversationSummary]
    /// Whether rows come after these.
    public let hasMore: Bool

    /// Creates the reply.
    public init(_ page: ConversationPage) {
        conversations = page.conversations
        hasMore = page.hasMore
    }

    /// The page it carries.
    public var page: ConversationPage { ConversationPage(conversations: conversations, hasMore: hasMore) }

    public static let schema = WireSchema.object(
        [
            ("conversations", .array(ConversationSummary.schema, maxItems: ConversationRules.maxPage)),
            ("hasMore", .boolean),
        ], required: ["conversations", "hasMore"])
}

/// The body of a request for the one-to-one conversation with a user.
public struct DirectRequest: WireType, Equatable {
    /// The other person.
    public let userID: UserID

    /// Creates the body.
    public init(userID: UserID) { self.userID = userID }

    public static let schema = WireSchema.object([("userID", .identifier)], required: ["userID"])
}

/// The body of a new group.
public struct GroupRequest: WireType, Equatable {
    /// Most members one request may add.
    public static let maxMembers = 1_000

    /// The group's title.
    public let title: String
    /// The members besides the caller.
    public let memberIDs: [UserID]

    /// Creates the body.
    public init(title: String, memberIDs: [UserID]) {
        self.title = title
        self.memberIDs = memberIDs
    }

    public static let schema = WireSchema.object(
        [
            ("title", .string(minLength: 1, maxLength: Validation.maxTitleLength)), ("memberIDs", .array(.identifier, maxItems: maxMembers)),
        ], required: ["title", "memberIDs"])
}

/// The caller's waiting invitations.
public struct InvitationList: WireType, Equatable {
    /// The invitations, newest first.
    public let invitations: [Invitation]

    /// Creates the reply.
    public init(_ invitations: [Invitation]) { self.invitations = invitations }

    public static let schema = WireSchema.object(
        [
            (
                "invitations",
                .array(
                    .object(
                        [
                            ("id", .identifier), ("title", .string(maxLength: Validation.maxTitleLength)), ("isGroup", .boolean),
                            ("inviterID", .identifier),
                            ("inviterName", .string(maxLength: Validation.maxDisplayNameLength)),
                            ("memberCount", .integer(0...GroupRequest.maxMembers + 1)),
                            ("invitedAt", .timestamp),
                        ], required: ["id", "title", "isGroup", "inviterID", "inviterName", "memberCount", "invitedAt"]),
                    maxItems: ConversationRules.maxPendingInvitations)
            )
        ], required: ["invitations"])
}

/// The people the caller has blocked.
public struct BlockList: WireType, Equatable {
    /// Longest list the client accepts.
    public static let maxBlocked = 100_000

    /// Their ids.
    public let userIDs: [UserID]

    /// Creates the reply.
    public init(_ userIDs: [UserID]) { self.userIDs = userIDs }

    public static let schema = WireSchema.object([("userIDs", .array(.identifier, maxItems: maxBlocked))], required: ["userIDs"])
}

extension ConversationSummary: WireType {
    public static let schema = WireSchema.object(
        [
            ("id", .identifier), ("title", .string(maxLength: Validation.maxTitleLength)), ("isGroup", .boolean),
            ("memberIDs", .array(.identifier, maxItems: GroupRequest.maxMembers + 1)),
            (
                "lastMessage",
                .nullable(
                    .object(
                        [
                            ("id", .identifier), ("senderID", .identifier), ("text", .string(maxLength: Validation.maxMessageLength)),
                            ("sentAt", .timestamp),
                            ("deleted", .boolean),
                        ], required: ["id", "senderID", "text", "sentAt"]))
            ),
            ("unreadCount", .integer(0...Int(Int32.max))), ("unreadMentions", .integer(0...Int(Int32.max))), ("lastActivityAt", .timestamp),
            (
                "notifications",
                .object(
                    [("level", .enumeration(NotificationLevel.allCases.map(\.rawValue))), ("until", .timestamp), ("placedAt", .timestamp)],
                    required: ["level"])
            ),
            (
                "notInvited",
                .array(
                    .object(
                        [("userID", .identifier), ("reason", .enumeration(NotInvited.Reason.allCases.map(\.rawValue)))],
                        required: ["userID", "reason"]), maxItems: GroupRequest.maxMembers)
            ),
        ], required: ["id", "title", "isGroup", "memberIDs", "unreadCount", "lastActivityAt"])
}

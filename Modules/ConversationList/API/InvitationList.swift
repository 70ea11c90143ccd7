import ConversationList
import Kernel

/// The caller's waiting invitations.
public struct InvitationList: WireType, Equatable {
    /// The invitations, newest first.
    public let invitations: [Invitation]

    /// Creates the reply.
    public init(_ invitations: [Invitation]) { self.invitations = invitations }

    public static let schema = WireSchema.object([
        ("invitations", .array(.object([
            ("id", .identifier), ("title", .string(maxLength: Validation.maxTitleLength)), ("isGroup", .boolean), ("inviterID", .identifier),
            ("inviterName", .string(maxLength: Validation.maxDisplayNameLength)), ("memberCount", .integer(0...GroupRequest.maxMembers + 1)),
            ("invitedAt", .timestamp),
        ], required: ["id", "title", "isGroup", "inviterID", "inviterName", "memberCount", "invitedAt"]), maxItems: ConversationRules.maxPendingInvitations)),
    ], required: ["invitations"])
}


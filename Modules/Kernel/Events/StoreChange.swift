/// A change a user may see that is not a message: a conversation they are in was created or
/// someone joined it, they were invited to one, someone left one (or they declined an
/// invitation), their read marker moved, someone they share a conversation with was renamed.
/// Stored with a cursor in the same order as messages, so one stream carries both and a reader
/// resumes both at once. Who sees each is decided when it is stored (`audience` there), never
/// later: a stranger who becomes a contact does not see the renames from before.
public struct StoreChange: Sendable, Hashable, Codable {
    /// What changed. The raw value is the event's `type` on the wire and in `tail --json`.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// A conversation was created with the reader as a member, or someone (the reader too)
        /// joined one the reader is in (`userID`: who joined; none at creation).
        case conversationAdded = "conversation.added"
        /// The reader was invited to a conversation (`userID`: the reader).
        case conversationInvited = "conversation.invited"
        /// Someone left a conversation the reader is in, or the reader left one or declined an
        /// invitation to it (`userID`: who).
        case conversationLeft = "conversation.left"
        /// The reader's read marker moved in a conversation (on another device, say).
        case readMarkerMoved = "chat.read"
        /// The reader, or someone who shares a conversation with them, chose a new display name.
        case profileRenamed = "profile.renamed"
        /// The reader chose what in a conversation tells them (on another device, say).
        case notificationsChosen = "conversation.notifications"
    }

    /// What changed.
    public let kind: Kind
    /// The conversation, for every kind but `profileRenamed`.
    public let conversationID: ConversationID?
    /// Who joined, was invited, left, read, or was renamed.
    public let userID: UserID?
    /// The new display name, for `profileRenamed`.
    public let displayName: String?

    private init(kind: Kind, conversationID: ConversationID?, userID: UserID?, displayName: String?) {
        self.kind = kind
        self.conversationID = conversationID
        self.userID = userID
        self.displayName = displayName
    }

    /// A conversation was created (`joining` nil), or `joining` joined it; its members see it.
    public static func conversationAdded(_ conversationID: ConversationID, joining: UserID? = nil) -> StoreChange {
        StoreChange(kind: .conversationAdded, conversationID: conversationID, userID: joining, displayName: nil)
    }

    /// `invitee` was invited to a conversation; only they see it.
    public static func conversationInvited(_ conversationID: ConversationID, invitee: UserID) -> StoreChange {
        StoreChange(kind: .conversationInvited, conversationID: conversationID, userID: invitee, displayName: nil)
    }

    /// `user` left a conversation (they and its members see it), or declined an invitation to
    /// it (only they see it).
    public static func conversationLeft(_ conversationID: ConversationID, by user: UserID) -> StoreChange {
        StoreChange(kind: .conversationLeft, conversationID: conversationID, userID: user, displayName: nil)
    }

    /// `reader` read a conversation up to its end; only `reader` sees it.
    public static func readMarkerMoved(in conversationID: ConversationID, by reader: UserID) -> StoreChange {
        StoreChange(kind: .readMarkerMoved, conversationID: conversationID, userID: reader, displayName: nil)
    }

    /// `member` chose what in a conversation tells them; only they see it.
    public static func notificationsChosen(in conversationID: ConversationID, by member: UserID) -> StoreChange {
        StoreChange(kind: .notificationsChosen, conversationID: conversationID, userID: member, displayName: nil)
    }

    /// `user` is now called `displayName`; they and everyone sharing a conversation with them see it.
    public static func profileRenamed(_ user: UserID, to displayName: String) -> StoreChange {
        StoreChange(kind: .profileRenamed, conversationID: nil, userID: user, displayName: displayName)
    }

    /// Rebuilds a stored change from its columns.
    /// - Throws: `.internal` when the kind's fields are missing (a damaged row).
    public init(stored kind: Kind, conversationID: ConversationID?, userID: UserID?, displayName: String?) throws {
        let complete =
            switch kind {
            case .conversationAdded: conversationID != nil
            case .conversationInvited, .conversationLeft, .readMarkerMoved, .notificationsChosen: conversationID != nil && userID != nil
            case .profileRenamed: userID != nil && displayName != nil
            }
        guard complete else { throw AppError(.internal, "a stored \(kind.rawValue) change lacks its fields") }
        self.init(kind: kind, conversationID: conversationID, userID: userID, displayName: displayName)
    }
}

/// A change a user may see that is not a message: a conversation they are in was created, their
/// read marker moved, someone they share a conversation with was renamed. Stored with a cursor
/// in the same order as messages, so one stream carries both and a reader resumes both at once.
public struct StoreChange: Sendable, Hashable, Codable {
    /// What changed. The raw value is the event's `type` on the wire and in `tail --json`.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// A conversation was created with the reader as a member.
        case conversationAdded = "conversation.added"
        /// The reader's read marker moved in a conversation (on another device, say).
        case readMarkerMoved = "chat.read"
        /// The reader, or someone who shares a conversation with them, chose a new display name.
        case profileRenamed = "profile.renamed"
    }

    /// What changed.
    public let kind: Kind
    /// The conversation, for `conversationAdded` and `readMarkerMoved`.
    public let conversationID: ConversationID?
    /// The reader whose marker moved, or the user renamed.
    public let userID: UserID?
    /// The new display name, for `profileRenamed`.
    public let displayName: String?

    private init(kind: Kind, conversationID: ConversationID?, userID: UserID?, displayName: String?) {
        self.kind = kind
        self.conversationID = conversationID
        self.userID = userID
        self.displayName = displayName
    }

    /// A conversation was created; its members see it.
    public static func conversationAdded(_ conversationID: ConversationID) -> StoreChange {
        StoreChange(kind: .conversationAdded, conversationID: conversationID, userID: nil, displayName: nil)
    }

    /// `reader` read a conversation up to its end; only `reader` sees it.
    public static func readMarkerMoved(in conversationID: ConversationID, by reader: UserID) -> StoreChange {
        StoreChange(kind: .readMarkerMoved, conversationID: conversationID, userID: reader, displayName: nil)
    }

    /// `user` is now called `displayName`; they and everyone sharing a conversation with them see it.
    public static func profileRenamed(_ user: UserID, to displayName: String) -> StoreChange {
        StoreChange(kind: .profileRenamed, conversationID: nil, userID: user, displayName: displayName)
    }

    /// Rebuilds a stored change from its columns.
    /// - Throws: `.internal` when the kind's fields are missing (a damaged row).
    public init(stored kind: Kind, conversationID: ConversationID?, userID: UserID?, displayName: String?) throws {
        let complete = switch kind {
        case .conversationAdded: conversationID != nil
        case .readMarkerMoved: conversationID != nil && userID != nil
        case .profileRenamed: userID != nil && displayName != nil
        }
        guard complete else { throw AppError(.internal, "a stored \(kind.rawValue) change lacks its fields") }
        self.init(kind: kind, conversationID: conversationID, userID: userID, displayName: displayName)
    }
}

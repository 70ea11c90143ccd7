import Kernel

/// A message's reactions as they are now, without the message: what a `chat.reacted` event
/// carries, so that a reaction weighs a few hundred bytes whatever the message's text and quote
/// (a reader applies it to the message it shows, `Message.reacting(_:)`).
public struct MessageReactions: Equatable, Sendable {
    /// The conversation of the message.
    public let conversationID: ConversationID
    /// The message reacted to.
    public let messageID: MessageID
    /// Who reacted with each emoji, in the order they did (`Message.reactions`).
    public let reactions: [String: [UserID]]
    /// How many people reacted with each emoji (`Message.reactionCounts`).
    public let reactionCounts: [String: Int]

    /// The reactions of `message` as it is now.
    public init(of message: Message) {
        self.init(conversationID: message.conversationID, messageID: message.id, reactions: message.reactions,
                  reactionCounts: message.reactionCounts)
    }

    /// Reactions as read from the wire.
    public init(conversationID: ConversationID, messageID: MessageID, reactions: [String: [UserID]], reactionCounts: [String: Int]) {
        self.conversationID = conversationID
        self.messageID = messageID
        self.reactions = reactions
        self.reactionCounts = reactionCounts
    }

    /// Whether one of `people` reacted. Every socket asks it of every event, so it builds no set
    /// of who reacted: a message with 1,900 reactors in a group of 190 would build 190 an event.
    public func anyReacted(among people: Set<UserID>) -> Bool {
        !people.isEmpty && reactions.values.contains { $0.contains(where: people.contains) }
    }

    /// Whether anyone but `person` reacted.
    public func anyReacted(besides person: UserID) -> Bool {
        reactions.values.contains { $0.contains { $0 != person } }
    }

    /// These reactions without those of `people` (`Message.hidingReactions(of:)`).
    public func hidingReactions(of people: Set<UserID>) -> MessageReactions {
        guard anyReacted(among: people) else { return self }
        let kept = reactions.compactMapValues { reactors in
            let kept = reactors.filter { !people.contains($0) }
            return kept.isEmpty ? nil : kept
        }
        return MessageReactions(conversationID: conversationID, messageID: messageID, reactions: kept, reactionCounts: kept.mapValues(\.count))
    }

    /// About how many bytes it takes on the wire as an event (`Message.wireBytes`'s measure).
    public var wireBytes: Int { 3 * (Validation.maxIdentifierBytes + 3) + 96 + Message.wireBytes(of: reactions) }
}

extension MessageReactions: Codable {
    private enum CodingKeys: String, CodingKey { case conversationID, messageID, reactions, reactionCounts }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(conversationID: try container.decode(ConversationID.self, forKey: .conversationID),
                  messageID: try container.decode(MessageID.self, forKey: .messageID),
                  reactions: try container.decodeIfPresent([String: [UserID]].self, forKey: .reactions) ?? [:],
                  reactionCounts: try container.decodeIfPresent([String: Int].self, forKey: .reactionCounts) ?? [:])
    }

    /// Who the wire names of `reactions`: the first `ChatRules.reactorsNamed` of each emoji, so that
    /// an event weighs the same however many react.
    static func named(_ reactions: [String: [UserID]]) -> [String: [UserID]] {
        reactions.mapValues { Array($0.prefix(ChatRules.reactorsNamed)) }
    }

    /// Names the first `ChatRules.reactorsNamed` of each emoji, as a message does.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(conversationID, forKey: .conversationID)
        try container.encode(messageID, forKey: .messageID)
        try container.encode(Self.named(reactions), forKey: .reactions)
        try container.encode(reactionCounts, forKey: .reactionCounts)
    }
}

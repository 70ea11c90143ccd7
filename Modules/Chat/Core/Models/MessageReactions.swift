import Kernel

/// A message's reactions as they are now, without the message: what a `chat.reacted` event
/// carries, so that a reaction weighs a few hundred bytes whatever the message's text and quote
/// (a reader applies it to the message it shows, `Message.reacting(_:)`). The store names
/// everyone who reacted; a reader is given them as they see them (`seen(by:apart:)`).
public struct MessageReactions: Equatable, Sendable {
    /// The conversation of the message.
    public let conversationID: ConversationID
    /// The message reacted to.
    public let messageID: MessageID
    /// Who reacted with each emoji, in the order they did (`Message.reactions`): everyone as
    /// stored, the reader alone as seen.
    public let reactions: [String: [UserID]]
    /// How many people reacted with each emoji (`Message.reactionCounts`).
    public let reactionCounts: [String: Int]

    /// The reactions of `message` as it is now.
    public init(of message: Message) {
        self.init(
            conversationID: message.conversationID, messageID: message.id, reactions: message.reactions,
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

    /// These reactions as `reader` sees them (`nil`: one who reacted with none): how many reacted
    /// with each emoji, and who only where it is the reader, without the reactions of the people
    /// the reader is `apart` from (`ChatRules.apart`). However many react, what a reader is sent
    /// names at most `ChatRules.maxReactionsPerPerson` emoji of their own beside
    /// `ChatRules.maxReactionKinds` counts.
    public func seen(by reader: UserID?, apart: Set<UserID>) -> MessageReactions {
        let shown = anyReacted(among: apart) ? hidingReactions(of: apart) : self
        var own: [String: [UserID]] = [:]
        if let reader {
            for (emoji, reactors) in shown.reactions where reactors.contains(reader) { own[emoji] = [reader] }
        }
        return MessageReactions(conversationID: conversationID, messageID: messageID, reactions: own, reactionCounts: shown.reactionCounts)
    }

    /// These reactions without those of `people`, counted again.
    private func hidingReactions(of people: Set<UserID>) -> MessageReactions {
        let kept = reactions.compactMapValues { reactors in
            let kept = reactors.filter { !people.contains($0) }
            return kept.isEmpty ? nil : kept
        }
        return MessageReactions(conversationID: conversationID, messageID: messageID, reactions: kept, reactionCounts: kept.mapValues(\.count))
    }

    /// About how many bytes it takes on the wire as an event, as a reader sees it (`Message.wireBytes`'s measure).
    public var wireBytes: Int { 3 * (Validation.maxIdentifierBytes + 3) + 96 + Message.wireBytes(of: reactions) }
}

extension MessageReactions: Codable {
    private enum CodingKeys: String, CodingKey { case conversationID, messageID, reactions, reactionCounts }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            conversationID: try container.decode(ConversationID.self, forKey: .conversationID),
            messageID: try container.decode(MessageID.self, forKey: .messageID),
            reactions: try container.decodeIfPresent([String: [UserID]].self, forKey: .reactions) ?? [:],
            reactionCounts: try container.decodeIfPresent([String: Int].self, forKey: .reactionCounts) ?? [:])
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(conversationID, forKey: .conversationID)
        try container.encode(messageID, forKey: .messageID)
        try container.encode(reactions, forKey: .reactions)
        try container.encode(reactionCounts, forKey: .reactionCounts)
    }
}

import Kernel

/// One thing a user may see, in the store's one order: a message in one of their conversations,
/// or a `StoreChange` that concerns them. Live delivery, `tail` and the events socket all carry
/// this stream; each event has a cursor a reader resumes after.
///
/// Encoded (in `tail --json`, on the events socket and in `GET /v1/events/log`) as one object,
/// version `v` 1: `{"v":1,"type":…,"cursor":…,"event":{…}}`; `event` is `{"message":{…}}` for a
/// `chat.message`, `{"message":{…}}` with the message as it is now for a `chat.edited` or
/// `chat.deleted`, the message's reactions as they are now for a `chat.reacted`
/// (`{"conversationID","messageID","reactions","reactionCounts"}`, `MessageReactions`), each as
/// its reader sees it (`seen(by:apart:)`: reactions counted, named only where the reader's), and the
/// change's fields (`conversationID`, `userID`, `displayName`) otherwise.
public enum UserEvent: Sendable, Equatable {
    /// A message was stored.
    case message(Message)
    /// A message's author edited or deleted it: the message as it is now (its own cursor is where
    /// it was sent; `cursor` is the change's), so that applying it twice changes nothing. Made by
    /// `changed(_:_:cursor:)`, never for a reaction.
    case messageChanged(MessageChange, Message, cursor: EventCursor)
    /// Someone added or removed a reaction: the message's reactions as they are now, not the
    /// message (a reaction changes neither its text nor its quote, which may weigh 16 KB).
    case reacted(MessageReactions, cursor: EventCursor)
    /// Something else changed.
    case change(StoreChange, cursor: EventCursor)

    /// What a message's author did to it. The raw value is the event's `type`.
    public enum MessageChange: String, Sendable, Hashable, Codable, CaseIterable {
        /// A new version of its text.
        case edited = "chat.edited"
        /// Deleted for everyone: the event carries its tombstone.
        case deleted = "chat.deleted"
        /// Someone added or removed a reaction: the event carries the reactions it has now.
        case reacted = "chat.reacted"

        /// Whether its event carries the message as it is now (else its reactions alone).
        public var carriesMessage: Bool { self != .reacted }
    }

    /// The version of the encoding above; a reader skips events of a version it does not know.
    public static let version = 1
    /// The `type` of a message event.
    public static let messageType = "chat.message"
    /// Every event `type`.
    public static let types = [messageType] + MessageChange.allCases.map(\.rawValue) + StoreChange.Kind.allCases.map(\.rawValue)

    /// The event of a `kind` change to `message`, as the message is now, at `cursor`: a reaction's
    /// carries the reactions alone.
    public static func changed(_ kind: MessageChange, _ message: Message, cursor: EventCursor) -> UserEvent {
        kind.carriesMessage ? .messageChanged(kind, message, cursor: cursor) : .reacted(MessageReactions(of: message), cursor: cursor)
    }

    /// The places in `events` (read together, oldest first) of the reactions a later one of the
    /// same message makes stale: each `chat.reacted` carries the reactions as they are when read,
    /// so of those read together only the last needs to go out, and a storm of reactions to one
    /// message costs a live reader one event per read, not one per reaction.
    public static func staleReactions(in events: [UserEvent]) -> Set<Int> {
        struct Key: Hashable {
            let conversationID: ConversationID
            let messageID: MessageID
        }
        var later = Set<Key>()
        var stale = Set<Int>()
        for (place, event) in events.enumerated().reversed() {
            guard case .reacted(let now, _) = event else { continue }
            if !later.insert(Key(conversationID: now.conversationID, messageID: now.messageID)).inserted { stale.insert(place) }
        }
        return stale
    }

    /// Where the event stands in the store's order (a message not yet stored has none).
    public var cursor: EventCursor? {
        switch self {
        case .message(let message): message.cursor
        case .messageChanged(_, _, let cursor), .reacted(_, let cursor), .change(_, let cursor): cursor
        }
    }

    /// The event's `type`: `chat.message`, the message change's or the change's kind.
    public var type: String {
        switch self {
        case .message: Self.messageType
        case .messageChanged(let change, _, _): change.rawValue
        case .reacted: MessageChange.reacted.rawValue
        case .change(let change, _): change.kind.rawValue
        }
    }

    /// The conversation it is of: its message's, or the change's (`nil` for a new display name).
    public var conversationID: ConversationID? {
        switch self {
        case .message(let message), .messageChanged(_, let message, _): message.conversationID
        case .reacted(let reactions, _): reactions.conversationID
        case .change(let change, _): change.conversationID
        }
    }

    /// The conversation of the message it is about (its members see it); `nil` for a change of
    /// something else, which is stored for the people it concerns.
    public var messageConversationID: ConversationID? {
        if case .change = self { nil } else { conversationID }
    }

    /// The reactions on its message as it is now (none for a change of something else).
    public var reactions: MessageReactions? {
        switch self {
        case .message(let message), .messageChanged(_, let message, _): MessageReactions(of: message)
        case .reacted(let reactions, _): reactions
        case .change: nil
        }
    }

    /// The message, for a message event (a new message).
    public var message: Message? {
        if case .message(let message) = self { message } else { nil }
    }

    /// The same event as `reader` sees it (`nil`: one who reacted with none): the reactions on its message counted, named only where
    /// they are the reader's, without those of the people the reader is `apart` from (`Message.seen(by:apart:)`).
    public func seen(by reader: UserID?, apart: Set<UserID>) -> UserEvent {
        switch self {
        case .message(let message): .message(message.seen(by: reader, apart: apart))
        case .messageChanged(let change, let message, let cursor): .messageChanged(change, message.seen(by: reader, apart: apart), cursor: cursor)
        case .reacted(let reactions, let cursor): .reacted(reactions.seen(by: reader, apart: apart), cursor: cursor)
        case .change: self
        }
    }

    /// About how many bytes it takes on the wire (`Message.wireBytes`; a change of something else is small).
    public var wireBytes: Int {
        if case .reacted(let reactions, _) = self { return reactions.wireBytes }
        return messageNow?.wireBytes ?? 256
    }

    /// The message as it is now, for a message event or an edit or deletion: what a reader shows.
    public var messageNow: Message? {
        switch self {
        case .message(let message), .messageChanged(_, let message, _): message
        case .reacted, .change: nil
        }
    }
}

extension UserEvent: Codable {
    private enum Keys: String, CodingKey { case v, type, cursor, event }
    private enum MessageKeys: String, CodingKey { case message }
    private enum ChangeKeys: String, CodingKey { case conversationID, userID, displayName }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        let version = try container.decodeIfPresent(Int.self, forKey: .v) ?? Self.version
        guard version == Self.version else {
            throw DecodingError.dataCorruptedError(forKey: .v, in: container, debugDescription: "event version \(version) is not \(Self.version)")
        }
        let type = try container.decode(String.self, forKey: .type)
        if type == Self.messageType {
            self = .message(try container.nestedContainer(keyedBy: MessageKeys.self, forKey: .event).decode(Message.self, forKey: .message))
            return
        }
        if type == MessageChange.reacted.rawValue {
            self = .reacted(
                try container.decode(MessageReactions.self, forKey: .event), cursor: try container.decode(EventCursor.self, forKey: .cursor))
            return
        }
        if let change = MessageChange(rawValue: type) {
            let message = try container.nestedContainer(keyedBy: MessageKeys.self, forKey: .event).decode(Message.self, forKey: .message)
            self = .messageChanged(change, message, cursor: try container.decode(EventCursor.self, forKey: .cursor))
            return
        }
        guard let kind = StoreChange.Kind(rawValue: type) else {
            throw DecodingError.dataCorruptedError(forKey: .type, in: container, debugDescription: "unknown event type")
        }
        let fields = try container.nestedContainer(keyedBy: ChangeKeys.self, forKey: .event)
        let change = try StoreChange(
            stored: kind, conversationID: try fields.decodeIfPresent(ConversationID.self, forKey: .conversationID),
            userID: try fields.decodeIfPresent(UserID.self, forKey: .userID),
            displayName: try fields.decodeIfPresent(String.self, forKey: .displayName))
        self = .change(change, cursor: try container.decode(EventCursor.self, forKey: .cursor))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(Self.version, forKey: .v)
        try container.encode(type, forKey: .type)
        try container.encodeIfPresent(cursor, forKey: .cursor)
        switch self {
        case .message(let message), .messageChanged(_, let message, _):
            var event = container.nestedContainer(keyedBy: MessageKeys.self, forKey: .event)
            try event.encode(message, forKey: .message)
        case .reacted(let reactions, _):
            try container.encode(reactions, forKey: .event)
        case .change(let change, _):
            var event = container.nestedContainer(keyedBy: ChangeKeys.self, forKey: .event)
            try event.encodeIfPresent(change.conversationID, forKey: .conversationID)
            try event.encodeIfPresent(change.userID, forKey: .userID)
            try event.encodeIfPresent(change.displayName, forKey: .displayName)
        }
    }
}

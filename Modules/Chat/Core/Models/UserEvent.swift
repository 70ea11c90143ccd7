import Kernel

/// One thing a user may see, in the store's one order: a message in one of their conversations,
/// or a `StoreChange` that concerns them. Live delivery, `tail` and the events socket all carry
/// this stream; each event has a cursor a reader resumes after.
///
/// Encoded (in `tail --json`, on the events socket and in `GET /v1/events/log`) as one object,
/// version `v` 1: `{"v":1,"type":…,"cursor":…,"event":{…}}`; `event` is `{"message":{…}}` for a
/// `chat.message` and the change's fields (`conversationID`, `userID`, `displayName`) otherwise.
public enum UserEvent: Sendable, Equatable {
    /// A message was stored.
    case message(Message)
    /// Something else changed.
    case change(StoreChange, cursor: EventCursor)

    /// The version of the encoding above; a reader skips events of a version it does not know.
    public static let version = 1
    /// The `type` of a message event.
    public static let messageType = "chat.message"
    /// Every event `type`.
    public static let types = [messageType] + StoreChange.Kind.allCases.map(\.rawValue)

    /// Where the event stands in the store's order (a message not yet stored has none).
    public var cursor: EventCursor? {
        switch self {
        case .message(let message): message.cursor
        case .change(_, let cursor): cursor
        }
    }

    /// The event's `type`: `chat.message` or the change's kind.
    public var type: String {
        switch self {
        case .message: Self.messageType
        case .change(let change, _): change.kind.rawValue
        }
    }

    /// The message, for a message event.
    public var message: Message? {
        if case .message(let message) = self { message } else { nil }
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
        guard let kind = StoreChange.Kind(rawValue: type) else {
            throw DecodingError.dataCorruptedError(forKey: .type, in: container, debugDescription: "unknown event type")
        }
        let fields = try container.nestedContainer(keyedBy: ChangeKeys.self, forKey: .event)
        let change = try StoreChange(stored: kind, conversationID: try fields.decodeIfPresent(ConversationID.self, forKey: .conversationID),
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
        case .message(let message):
            var event = container.nestedContainer(keyedBy: MessageKeys.self, forKey: .event)
            try event.encode(message, forKey: .message)
        case .change(let change, _):
            var event = container.nestedContainer(keyedBy: ChangeKeys.self, forKey: .event)
            try event.encodeIfPresent(change.conversationID, forKey: .conversationID)
            try event.encodeIfPresent(change.userID, forKey: .userID)
            try event.encodeIfPresent(change.displayName, forKey: .displayName)
        }
    }
}

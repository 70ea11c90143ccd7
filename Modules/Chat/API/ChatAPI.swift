import Chat
import Kernel

/// Chat's wire contract. A message is sent with `PUT` to its own id, chosen by the client, so a
/// retried send stores one message.
/// The bodies its endpoints carry, and the wire schemas of its models, follow it in this file.
public enum ChatAPI {
    /// A conversation's newest messages, or those just before a message.
    public static let history = Endpoint<NoContent, MessagePageReply, PathParameters.Conversation>(
        .get, "/v1/conversations/{conversation}/messages", "A page of history, oldest first: the newest, or those before a message",
        query: [Query.pageLimit, Query.before])
    /// Stores a message under the client's id; the same id again returns the stored message.
    public static let send = Endpoint<SendRequest, Message, PathParameters.ConversationMessage>(
        .put, "/v1/conversations/{conversation}/messages/{message}", "Send a message with the client's id (idempotent)")
    /// Gives the caller's message a new version of its text.
    public static let edit = Endpoint<EditRequest, Message, PathParameters.ConversationMessage>(
        .patch, "/v1/conversations/{conversation}/messages/{message}",
        "Edit your message: its author only, within 24 hours of sending, at most 10 times; the same text again changes nothing")
    /// Deletes the caller's message for everyone, leaving a tombstone.
    public static let delete = Endpoint<NoContent, Message, PathParameters.ConversationMessage>(
        .delete, "/v1/conversations/{conversation}/messages/{message}",
        "Delete your message for everyone: its text is gone and a tombstone remains (returned); again changes nothing")
    /// Adds or removes the caller's reaction to a message.
    public static let react = Endpoint<ReactRequest, Message, PathParameters.ConversationMessage>(
        .post, "/v1/conversations/{conversation}/messages/{message}/reactions",
        "Add your reaction (one emoji) to a message, or remove it with remove: true; again changes nothing. At most 20 different on a message, 10 of yours"
    )
    /// Marks every message of the conversation as read by the caller.
    public static let markRead = Endpoint<NoContent, NoContent, PathParameters.Conversation>(
        .post, "/v1/conversations/{conversation}/read", "Mark the conversation read", successStatus: 204)

    /// How far the conversation's other members have read.
    public static let receipts = Endpoint<NoContent, ReceiptList, PathParameters.Conversation>(
        .get, "/v1/conversations/{conversation}/receipts",
        "How far each other member has read, for those who share their receipts (none when you keep yours private)")
    /// Keeps the caller's read receipts private, or shares them.
    public static let receiptPrivacy = Endpoint<ReceiptPrivacy, NoContent, PathParameters.None>(
        .put, "/v1/receipts/privacy", "Keep your read receipts private (you then see no one's), or share them", successStatus: 204)

    /// Tells the conversation's other members that the caller is typing, or stopped.
    public static let typing = Endpoint<TypingRequest, NoContent, PathParameters.Conversation>(
        .put, "/v1/conversations/{conversation}/typing",
        "Say you are typing (typing: true, again every 2.5 s while you are; it lapses after 5 s) or stopped; never stored. "
            + "One typing notice every 2 s goes out, more go nowhere", successStatus: 204)

    /// Stored messages after a cursor: what a live reader missed while away.
    public static let catchUp = Endpoint<NoContent, MessageList, PathParameters.None>(
        .get, "/v1/messages", "Stored messages after a cursor, oldest first, in all the caller's conversations or one",
        query: [Query.afterMessage, Query.conversation, Query.catchUpLimit])

    /// Every event the caller may see after a cursor: what a live reader missed while away.
    public static let eventLog = Endpoint<NoContent, EventList, PathParameters.None>(
        .get, "/v1/events/log", "Stored events after a cursor, oldest first: messages and the changes that concern the caller",
        query: [Query.afterEvent, Query.catchUpLimit])

    /// The cursor of the newest event the caller may see.
    public static let newest = Endpoint<NoContent, CursorReply, PathParameters.None>(
        .get, "/v1/events/newest", "The cursor of the newest event the caller may see (absent when there is none)")

    /// The query parameters Chat's endpoints read.
    public enum Query {
        /// Messages on a page of history.
        public static let pageLimit = QueryParameter("limit", .integer(1...maxPage), "messages on the page (default 50)")
        /// The message a page of history ends before.
        public static let before = QueryParameter("before", .identifier, "the id of the message the page ends before")
        /// The cursor of the last message a reader saw.
        public static let afterMessage = QueryParameter("after", .cursor, required: true, "the cursor of the last message seen")
        /// The cursor of the last event a reader saw.
        public static let afterEvent = QueryParameter("after", .cursor, required: true, "the cursor of the last event seen")
        /// Only this conversation's messages.
        public static let conversation = QueryParameter("conversation", .identifier, "only this conversation")
        /// Most messages or events caught up at once.
        public static let catchUpLimit = QueryParameter("limit", .integer(1...ChatRules.catchUpLimit), "most returned (default and most: 500)")
    }

    /// A message's text in a request body.
    public static let messageText = WireSchema.string(minLength: 1, maxLength: Validation.maxMessageLength)

    /// Largest page of history.
    public static let maxPage = 500
    /// A page's size when the request gives none.
    public static let defaultPage = 50

    /// Every Chat endpoint.
    public static let endpoints = [
        history.spec, send.spec, edit.spec, delete.spec, react.spec, markRead.spec, receipts.spec, receiptPrivacy.spec, typing.spec, catchUp.spec,
        eventLog.spec, newest.spec,
    ]
}

/// The body of a send.
public struct SendRequest: WireType, Equatable {
    /// The message text; absent for files sent without a caption.
    public let text: String?
    /// The id of the message of the conversation it answers, if any.
    public let replyTo: MessageID?
    /// The files it carries, uploaded for it first (`FilesAPI.upload`), in their order; absent for none.
    public let attachments: [FileID]?

    /// Creates the body.
    public init(text: String, replyTo: MessageID? = nil, attachments: [FileID] = []) {
        self.text = text.isEmpty && !attachments.isEmpty ? nil : text
        self.replyTo = replyTo
        self.attachments = attachments.isEmpty ? nil : attachments
    }

    public static let schema = WireSchema.object(
        [
            ("text", ChatAPI.messageText), ("replyTo", .identifier),
            ("attachments", .array(.identifier, maxItems: Validation.maxFilesPerMessage)),
        ],
        required: [])
}

/// The body of an edit: the new text.
public struct EditRequest: WireType, Equatable {
    /// The message's new text.
    public let text: String

    /// Creates the body.
    public init(text: String) { self.text = text }

    public static let schema = WireSchema.object([("text", ChatAPI.messageText)], required: ["text"])
}

/// The body of a reaction: the emoji, and whether it is taken back.
public struct ReactRequest: WireType, Equatable {
    /// One emoji.
    public let emoji: String
    /// True to remove the reaction; absent or false to add it.
    public let remove: Bool?

    /// Creates the body.
    public init(emoji: String, remove: Bool) {
        self.emoji = emoji
        self.remove = remove ? true : nil
    }

    public static let schema = WireSchema.object(
        [("emoji", .string(minLength: 1, maxLength: Validation.maxReactionBytes)), ("remove", .boolean)],
        required: ["emoji"])
}

/// Read receipts.
public struct ReceiptList: WireType, Equatable {
    /// One per other member who shares theirs.
    public let receipts: [ReadReceipt]

    /// Creates the reply.
    public init(_ receipts: [ReadReceipt]) { self.receipts = receipts }

    public static let schema = WireSchema.object(
        [
            (
                "receipts",
                .array(
                    .object(
                        [
                            ("userID", .identifier), ("readCount", .integer(0...Int(Int32.max))),
                            ("lastRead", .identifier),
                        ], required: ["userID", "readCount"]),
                    maxItems: 10_000)
            )
        ], required: ["receipts"])
}

/// Whether the caller keeps their read receipts private.
public struct ReceiptPrivacy: WireType, Equatable {
    /// True to keep them private.
    public let `private`: Bool

    /// Creates the body.
    public init(private isPrivate: Bool) { self.private = isPrivate }

    public static let schema = WireSchema.object([("private", .boolean)], required: ["private"])
}

/// The body of a typing notice: whether the caller is typing.
public struct TypingRequest: WireType, Equatable {
    /// True while typing; false once stopped.
    public let typing: Bool

    /// Creates the body.
    public init(typing: Bool) { self.typing = typing }

    public static let schema = WireSchema.object([("typing", .boolean)], required: ["typing"])
}

/// A page of history.
public struct MessagePageReply: WireType, Equatable {
    /// The page, oldest first.
    public let messages: [Message]
    /// Whether older messages exist.
    public let hasOlder: Bool

    /// The reply for `page`.
    public init(_ page: MessagePage) {
        messages = page.messages
        hasOlder = page.hasOlder
    }

    /// The page it carries.
    public var page: MessagePage { MessagePage(messages: messages, hasOlder: hasOlder) }

    public static let schema = WireSchema.object(
        [("messages", .array(Message.schema, maxItems: ChatAPI.maxPage)), ("hasOlder", .boolean)],
        required: ["messages", "hasOlder"])
}

/// Messages after a cursor, oldest first.
public struct MessageList: WireType, Equatable {
    /// The messages, oldest first.
    public let messages: [Message]

    /// Creates the reply.
    public init(_ messages: [Message]) { self.messages = messages }

    public static let schema = WireSchema.object([("messages", .array(Message.schema, maxItems: ChatRules.catchUpLimit))], required: ["messages"])
}

/// Events after a cursor, oldest first. A reader skips the events it cannot read (a type or
/// version a newer server added), as `docs/protocol.md` promises.
public struct EventList: WireType, Equatable {
    /// The events, oldest first.
    public let events: [UserEvent]

    /// Creates the reply.
    public init(_ events: [UserEvent]) { self.events = events }

    private enum CodingKeys: String, CodingKey { case events }

    /// Takes the place of an event that does not decode, so that the list reads on past it.
    private struct Skipped: Decodable {
        init(from decoder: any Decoder) {}
    }

    public init(from decoder: any Decoder) throws {
        var list = try decoder.container(keyedBy: CodingKeys.self).nestedUnkeyedContainer(forKey: .events)
        var events: [UserEvent] = []
        while !list.isAtEnd {
            if let event = try? list.decode(UserEvent.self) { events.append(event) } else { _ = try list.decode(Skipped.self) }
        }
        self.events = events
    }

    public static let schema = WireSchema.object([("events", .array(UserEvent.schema, maxItems: ChatRules.catchUpLimit))], required: ["events"])
}

/// A cursor, or none.
public struct CursorReply: WireType, Equatable {
    /// The cursor; `nil` when there is no message yet.
    public let cursor: EventCursor?

    /// Creates the reply.
    public init(_ cursor: EventCursor?) { self.cursor = cursor }

    public static let schema = WireSchema.object([("cursor", .nullable(.cursor))], required: [])
}

extension Message: WireType {
    /// The emoji the reader reacted with, each naming the reader alone (`Message.seen(by:apart:)`).
    static let reactionsSchema = WireSchema.map(.array(.identifier, maxItems: 1))
    /// How many reacted with each emoji.
    static let reactionCountsSchema = WireSchema.map(.integer(1...Int(Int32.max)))

    public static let schema = WireSchema.object(
        [
            ("id", .identifier), ("conversationID", .identifier), ("senderID", .identifier),
            ("text", .string(maxLength: Validation.maxMessageLength)), ("sentAt", .timestamp), ("cursor", .cursor),
            ("version", .integer(0...ChatRules.maxEdits)), ("editedAt", .timestamp), ("deleted", .boolean),
            ("reactions", reactionsSchema), ("reactionCounts", reactionCountsSchema),
            (
                "replyTo",
                .object([("id", .identifier), ("quote", .string(maxLength: Message.Reply.quoteLength)), ("deleted", .boolean)], required: ["id"])
            ),
            ("mentions", .array(.identifier, maxItems: MentionFinder.limit)),
            ("attachments", .array(Attachment.schema, maxItems: Validation.maxFilesPerMessage)),
        ], required: ["id", "conversationID", "senderID", "text", "sentAt"])
}

extension Attachment: WireType {
    public static let schema = WireSchema.object(
        [
            ("id", .identifier), ("name", .string(minLength: 1, maxLength: 255)), ("mediaType", .string(minLength: 3, maxLength: 127)),
            ("size", .integer(0...Int.max)), ("sha256", .string(minLength: 64, maxLength: 64, pattern: "^[0-9a-f]{64}$")),
        ], required: ["id", "name", "mediaType", "size", "sha256"])
}

import Chat
import ChatAPI
import Kernel
import ServerSupport

/// Chat's routes, each answered by the caller's `ChatService`, `EventStreamService` for
/// catch-up, or `TypingService` for typing.
public struct ChatRoutes: Sendable {
    private let service: @Sendable (Caller) -> any ChatService
    private let events: @Sendable (Caller) -> any EventStreamService
    private let typing: @Sendable (Caller) -> any TypingService

    /// Creates the routes; `service`, `events` and `typing` build a caller's chat, event and typing services.
    public init(
        service: @escaping @Sendable (Caller) -> any ChatService, events: @escaping @Sendable (Caller) -> any EventStreamService,
        typing: @escaping @Sendable (Caller) -> any TypingService
    ) {
        self.service = service
        self.events = events
        self.typing = typing
    }

    /// Registers every Chat endpoint, and the sends and typing notices a client makes on its events socket.
    public func add(to routes: APIRoutes) {
        let (service, events, typing) = (service, events, typing)
        routes.add(ChatAPI.history) { call in
            let conversation = call.path.conversation
            let limit = try call.query(ChatAPI.Query.pageLimit, default: ChatAPI.defaultPage)
            let chat = service(call.caller)
            if let before = call.query(ChatAPI.Query.before) {
                let message: MessageID = try Validation.identifier(before, field: "before")
                return MessagePageReply(try await chat.messages(in: conversation, before: message, limit: limit))
            }
            return MessagePageReply(try await chat.latestMessages(in: conversation, limit: limit))
        }
        routes.add(ChatAPI.send) { call in
            let replyTo: MessageID? = try call.body.replyTo.map { try Validation.identifier($0.rawValue, field: "replyTo") }
            let attachments: [FileID] = try call.atMost(Validation.maxFilesPerMessage, call.body.attachments ?? [], field: "attachments").map {
                try Validation.identifier($0.rawValue, field: "attachments")
            }
            return try await service(call.caller).send(
                id: call.path.message, text: call.body.text ?? "", to: call.path.conversation, replyTo: replyTo, attachments: attachments)
        }
        routes.add(ChatAPI.edit) { call in
            try await service(call.caller).edit(call.path.message, in: call.path.conversation, text: call.body.text)
        }
        routes.add(ChatAPI.delete) { call in
            try await service(call.caller).delete(call.path.message, in: call.path.conversation)
        }
        routes.add(ChatAPI.react) { call in
            try await service(call.caller).react(
                to: call.path.message, in: call.path.conversation, with: call.body.emoji,
                adding: call.body.remove != true)
        }
        routes.add(ChatAPI.receipts) { call in ReceiptList(try await service(call.caller).receipts(in: call.path.conversation)) }
        routes.add(ChatAPI.receiptPrivacy) { call in
            try await service(call.caller).setReceiptsPrivate(call.body.private)
            return NoContent()
        }
        routes.add(socket: { client in SocketSends(chat: service(client.caller), client: client) })
        routes.add(socket: { client in SocketTyping(typing: typing(client.caller), client: client) })
        routes.add(ChatAPI.typing) { call in
            try await typing(call.caller).setTyping(call.body.typing, in: call.path.conversation)
            return NoContent()
        }
        routes.add(ChatAPI.catchUp) { call in
            let cursor = try EventCursor(parsing: try call.required(ChatAPI.Query.afterMessage))
            let conversation: ConversationID? = try call.query(ChatAPI.Query.conversation).map {
                try Validation.identifier($0, field: "conversation")
            }
            let limit = try call.query(ChatAPI.Query.catchUpLimit, default: ChatRules.catchUpLimit)
            return MessageList(try await events(call.caller).messages(after: cursor, in: conversation, limit: limit))
        }
        routes.add(ChatAPI.eventLog) { call in
            let cursor = try EventCursor(parsing: try call.required(ChatAPI.Query.afterEvent))
            let limit = try call.query(ChatAPI.Query.catchUpLimit, default: ChatRules.catchUpLimit)
            return EventList(try await events(call.caller).events(after: cursor, limit: limit))
        }
        routes.add(ChatAPI.newest) { call in CursorReply(try await events(call.caller).newestCursor()) }
        routes.add(ChatAPI.markRead) { call in
            try await service(call.caller).markRead(call.path.conversation)
            return NoContent()
        }
    }
}

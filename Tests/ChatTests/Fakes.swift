import Chat
import Foundation
import Kernel
import Synchronization
import TestSupport

struct FixedMembership: ConversationMembership {
    let members: [ConversationID: [UserID]]
    nonisolated(nonsending) func members(of conversationID: ConversationID) async throws -> [UserID]? { members[conversationID] }
    func blocks(involving user: UserID) async throws -> (blocked: Set<UserID>, blockers: Set<UserID>) { ([], []) }
    func contacts(of user: UserID) async throws -> [UserID] {
        Array(Set(members.values.filter { $0.contains(user) }.flatMap(\.self)).subtracting([user]))
    }
}

/// Blocks from a dictionary of who blocked whom; counts how often they were asked for.
final class BlockingMembership: ConversationMembership {
    let blocked: [UserID: Set<UserID>]
    let asked = Mutex(0)
    init(blocked: [UserID: Set<UserID>]) { self.blocked = blocked }
    nonisolated(nonsending) func members(of conversationID: ConversationID) async throws -> [UserID]? { nil }
    func blocks(involving user: UserID) async throws -> (blocked: Set<UserID>, blockers: Set<UserID>) {
        asked.withLock { $0 += 1 }
        return (blocked[user] ?? [], Set(blocked.filter { $0.value.contains(user) }.keys))
    }
}

/// Display names from a dictionary.
struct FixedNames: MemberNames {
    let names: [UserID: String]
    func displayNames(of ids: [UserID]) async throws -> [UserID: String] { names.filter { ids.contains($0.key) } }
}

/// A chat service for view-model tests: history from a list, sends pass a gate and may fail
/// (with `failure`) a number of times first, live messages are pushed by the test.
final class ScriptedChatService: ChatService, EventStreamService, TypingService {
    let history: [Message]
    let sendGate: CallGate
    private let failuresLeft: Mutex<Int>
    private let failure: AppError
    private let stored = Mutex<[MessageID: Message]>([:])
    private let sent = Mutex<[String]>([])
    private let answered = Mutex<[MessageID?]>([])
    private let carried = Mutex<[[FileID]]>([])
    let live = Broadcaster<UserEvent>()
    /// Typing notices for the screen, sent by the test.
    let typing = Broadcaster<TypingNotice>()
    /// Each typing notice the screen sent, in order.
    let typingSent = Broadcaster<Bool>()

    init(history: [Message] = [], sendGate: CallGate = CallGate(), failingSends: Int = 0, failure: AppError = AppError(.unavailable, "network down"))
    {
        self.history = history
        self.sendGate = sendGate
        failuresLeft = Mutex(failingSends)
        self.failure = failure
    }

    var storedCount: Int { stored.withLock(\.count) }
    /// The text of every send tried, in order.
    var attempts: [String] { sent.withLock { $0 } }
    /// The message each send tried answered, in order (`nil` for none).
    var replyAttempts: [MessageID?] { answered.withLock { $0 } }
    /// The files each send tried carried, in order.
    var fileAttempts: [[FileID]] { carried.withLock { $0 } }

    func latestMessages(in conversationID: ConversationID, limit: Int) async throws -> MessagePage {
        MessagePage(messages: Array(history.suffix(limit)), hasOlder: history.count > limit)
    }

    func messages(in conversationID: ConversationID, before messageID: MessageID, limit: Int) async throws -> MessagePage {
        guard let end = history.firstIndex(where: { $0.id == messageID }) else { throw AppError(.notFound, "no message") }
        let start = max(0, end - limit)
        return MessagePage(messages: Array(history[start..<end]), hasOlder: start > 0)
    }

    nonisolated(nonsending) func send(
        id: MessageID, text: String, to conversationID: ConversationID, replyTo: MessageID?, attachments: [FileID]
    ) async throws -> Message {
        try await sendGate.pass()
        sent.withLock { $0.append(text) }
        answered.withLock { $0.append(replyTo) }
        carried.withLock { $0.append(attachments) }
        let shouldFail = failuresLeft.withLock { left in
            defer { left -= 1 }
            return left > 0
        }
        if shouldFail { throw failure }
        return stored.withLock { stored in
            if let existing = stored[id] { return existing }
            let message = Message(id: id, conversationID: conversationID, senderID: UserID("u-ada"), text: text, sentAt: Date())
            stored[id] = message
            return message
        }
    }

    /// Edits a message sent or in `history` as the author would, whoever asks.
    func edit(_ messageID: MessageID, in conversationID: ConversationID, text: String) async throws -> Message {
        try change(messageID) { $0.editing(to: text, at: Date()) }
    }

    /// Deletes a message sent or in `history`, whoever asks.
    func delete(_ messageID: MessageID, in conversationID: ConversationID) async throws -> Message {
        try change(messageID) { $0.deleting(at: Date()) }
    }

    /// Adds or removes a reaction of "u-ada"'s.
    func react(to messageID: MessageID, in conversationID: ConversationID, with emoji: String, adding: Bool) async throws -> Message {
        try change(messageID) { message in
            var reactions = message.reactions
            reactions[emoji] = adding ? [UserID("u-ada")] : nil
            return message.reacting(reactions)
        }
    }

    private func change(_ messageID: MessageID, _ changed: (Message) -> Message) throws -> Message {
        try stored.withLock { stored in
            guard let current = stored[messageID] ?? history.first(where: { $0.id == messageID }) else { throw AppError(.notFound, "no message") }
            let message = changed(current)
            stored[messageID] = message
            return message
        }
    }

    func markRead(_ conversationID: ConversationID) async throws {}

    func receipts(in conversationID: ConversationID) async throws -> [ReadReceipt] { [] }

    func setReceiptsPrivate(_ isPrivate: Bool) async throws {}

    func liveMessages(in conversationID: ConversationID?) async throws -> AsyncStream<Message> { live.subscribe().compactMapped(\.message) }

    func messages(after cursor: EventCursor, in conversationID: ConversationID?, limit: Int) async throws -> [Message] { [] }

    func events(after cursor: EventCursor, limit: Int) async throws -> [UserEvent] { [] }

    func liveEvents() async throws -> AsyncStream<UserEvent> { live.subscribe() }

    func newestCursor() async throws -> EventCursor? { nil }

    func setTyping(_ typing: Bool, in conversationID: ConversationID) async throws { typingSent.send(typing) }

    func typingNotices() async throws -> AsyncStream<TypingNotice> { typing.subscribe() }
}

func makeHistory(_ count: Int, in conversation: ConversationID, from sender: UserID) -> [Message] {
    (0..<count).map { index in
        Message(
            id: MessageID("m\(index)"), conversationID: conversation, senderID: sender, text: "message \(index)",
            sentAt: Date(timeIntervalSince1970: Double(index)))
    }
}

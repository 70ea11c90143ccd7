import Foundation
import Kernel

/// Messages kept in process memory: the memory backend and unit tests. With a `SimulatedPeer`
/// its mock users answer messages after a delay.
public actor InMemoryChatService: ChatService, ChatActivityFeed {
    private var timelines: [ConversationID: [Message]] = [:]
    private var index: [MessageID: Message] = [:]
    /// Per conversation and reader: how many messages of the timeline the reader has read.
    private var readMarkers: [ConversationID: [UserID: Int]] = [:]
    /// Seeded messages count as read by everyone.
    private let seededCounts: [ConversationID: Int]
    private var repliesSent = 0
    private var peerTasks: [Task<Void, Never>] = []
    private let membership: any ConversationMembership
    private let sessions: any SessionStore
    private let clock: any WallClock
    private let conditions: SimulatedConditions
    private let peer: SimulatedPeer
    private let stored = Broadcaster<Message>()
    private let changed = Broadcaster<Void>()

    /// Creates the service with seeded messages (in order) that every member has read.
    public init(
        messages: [Message] = [],
        membership: any ConversationMembership,
        sessions: any SessionStore,
        clock: any WallClock = SystemWallClock(),
        conditions: SimulatedConditions = .none,
        peer: SimulatedPeer = .none
    ) {
        for message in messages {
            timelines[message.conversationID, default: []].append(message)
            index[message.id] = message
        }
        seededCounts = timelines.mapValues(\.count)
        self.membership = membership
        self.sessions = sessions
        self.clock = clock
        self.conditions = conditions
        self.peer = peer
    }

    deinit { peerTasks.forEach { $0.cancel() } }

    public func latestMessages(in conversationID: ConversationID, limit: Int) async throws -> MessagePage {
        try await authorize(conversationID)
        let timeline = timelines[conversationID] ?? []
        return page(of: timeline, endingAt: timeline.endIndex, limit: limit)
    }

    public func messages(in conversationID: ConversationID, before messageID: MessageID, limit: Int) async throws -> MessagePage {
        try await authorize(conversationID)
        let timeline = timelines[conversationID] ?? []
        guard let end = timeline.firstIndex(where: { $0.id == messageID }) else {
            throw AppError(.notFound, "no message '\(messageID)' in conversation \(conversationID)")
        }
        return page(of: timeline, endingAt: end, limit: limit)
    }

    public func send(id: MessageID, text: String, to conversationID: ConversationID) async throws -> Message {
        let me = try await authorize(conversationID)
        let text = try Validation.messageText(text)
        if let existing = index[id] {
            guard existing.conversationID == conversationID, existing.senderID == me, existing.text == text else {
                throw AppError(.conflict, "message id \(id) is already used by another message")
            }
            return existing
        }
        let message = append(Message(id: id, conversationID: conversationID, senderID: me, text: text, sentAt: clock.now()))
        try await scheduleReply(to: message)
        return message
    }

    public func markRead(_ conversationID: ConversationID) async throws {
        let me = try await authorize(conversationID)
        readMarkers[conversationID, default: [:]][me] = timelines[conversationID]?.count ?? 0
        changed.send(())
    }

    public func liveMessages(in conversationID: ConversationID?) async throws -> AsyncStream<Message> {
        let me = try sessions.requireSession().userID
        if let conversationID { try await membership.requireMember(me, of: conversationID) }
        let source = stored.subscribe()
        let membership = membership
        return AsyncStream { continuation in
            let forwarder = Task {
                for await message in source {
                    if let conversationID, message.conversationID != conversationID { continue }
                    if conversationID == nil, try await membership.members(of: message.conversationID)?.contains(me) != true { continue }
                    continuation.yield(message)
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in forwarder.cancel() }
        }
    }

    public func activity(of conversationIDs: [ConversationID], for reader: UserID) async throws -> [ConversationID: ChatActivity] {
        var result: [ConversationID: ChatActivity] = [:]
        for id in conversationIDs {
            guard let timeline = timelines[id], let last = timeline.last else { continue }
            let unread = timeline[marker(of: reader, in: id)...].count { $0.senderID != reader }
            result[id] = ChatActivity(lastMessage: last, unreadCount: unread)
        }
        return result
    }

    public func activityChanges() async throws -> AsyncStream<Void> { changed.subscribe() }

    private func marker(of reader: UserID, in conversationID: ConversationID) -> Int {
        readMarkers[conversationID]?[reader] ?? seededCounts[conversationID] ?? 0
    }

    @discardableResult
    private func authorize(_ conversationID: ConversationID) async throws -> UserID {
        try await conditions.apply()
        let me = try sessions.requireSession().userID
        try await membership.requireMember(me, of: conversationID)
        return me
    }

    /// Stores a message; sending one marks the conversation read for its sender.
    @discardableResult
    private func append(_ message: Message) -> Message {
        timelines[message.conversationID, default: []].append(message)
        index[message.id] = message
        readMarkers[message.conversationID, default: [:]][message.senderID] = timelines[message.conversationID]?.count
        stored.send(message)
        changed.send(())
        return message
    }

    private func page(of timeline: [Message], endingAt end: Int, limit: Int) -> MessagePage {
        let start = max(0, end - max(limit, 0))
        return MessagePage(messages: Array(timeline[start..<end]), hasOlder: start > 0)
    }

    private func scheduleReply(to message: Message) async throws {
        guard !peer.userIDs.contains(message.senderID),
              let members = try await membership.members(of: message.conversationID),
              let replier = members.first(where: peer.userIDs.contains) else { return }
        let text = peer.replies[repliesSent % peer.replies.count]
        repliesSent += 1
        let delay = peer.delay
        peerTasks.append(Task { [weak self] in
            try? await Task.sleep(for: delay)
            guard !Task.isCancelled else { return }
            await self?.postReply(text, from: replier, in: message.conversationID)
        })
    }

    private func postReply(_ text: String, from sender: UserID, in conversationID: ConversationID) {
        append(Message(id: .random(), conversationID: conversationID, senderID: sender, text: text, sentAt: clock.now()))
    }
}

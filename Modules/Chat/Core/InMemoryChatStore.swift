import Foundation
import Kernel

/// The messages of the memory backend, shared by every caller's `InMemoryChatService`. With a
/// `SimulatedPeer` its mock users answer messages after a delay.
public actor InMemoryChatStore: ChatActivityFeed, MessageFeed {
    private var timelines: [ConversationID: [Message]] = [:]
    private var index: [MessageID: Message] = [:]
    /// Per conversation and reader: how many messages of the timeline the reader has read.
    private var readMarkers: [ConversationID: [UserID: Int]] = [:]
    /// Seeded messages count as read by everyone.
    private let seededCounts: [ConversationID: Int]
    private var repliesSent = 0
    private var peerTasks: [Task<Void, Never>] = []
    let membership: any ConversationMembership
    let conditions: SimulatedConditions
    private let clock: any WallClock
    private let peer: SimulatedPeer
    private let fanOut = MessageFanOut()
    private let changed = Broadcaster<Void>()

    /// Creates the store with seeded messages (in order) that every member has read.
    public init(
        messages: [Message] = [],
        membership: any ConversationMembership,
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
        self.clock = clock
        self.conditions = conditions
        self.peer = peer
    }

    deinit { peerTasks.forEach { $0.cancel() } }

    func page(_ conversationID: ConversationID, before messageID: MessageID?, limit: Int) throws -> MessagePage {
        let timeline = timelines[conversationID] ?? []
        var end = timeline.endIndex
        if let messageID {
            guard let found = timeline.firstIndex(where: { $0.id == messageID }) else { throw ChatRules.noMessage(messageID, in: conversationID) }
            end = found
        }
        let start = max(0, end - max(limit, 0))
        return MessagePage(messages: Array(timeline[start..<end]), hasOlder: start > 0)
    }

    func send(id: MessageID, text: String, to conversationID: ConversationID, from me: UserID, members: [UserID]) throws -> Message {
        if let existing = index[id] { return try ChatRules.resent(existing, conversationID: conversationID, sender: me, text: text) }
        let message = append(Message(id: id, conversationID: conversationID, senderID: me, text: text, sentAt: clock.now()), members: members)
        scheduleReply(to: message, members: members)
        return message
    }

    func markRead(_ conversationID: ConversationID, by reader: UserID) {
        readMarkers[conversationID, default: [:]][reader] = timelines[conversationID]?.count ?? 0
        changed.send(())
    }

    public func subscribe(conversation conversationID: ConversationID?, member: UserID) -> AsyncStream<Message> {
        fanOut.subscribe(conversation: conversationID, member: member)
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

    /// Stores a message; sending one marks the conversation read for its sender.
    private func append(_ message: Message, members: [UserID]) -> Message {
        timelines[message.conversationID, default: []].append(message)
        index[message.id] = message
        readMarkers[message.conversationID, default: [:]][message.senderID] = timelines[message.conversationID]?.count
        fanOut.publish(message, to: members)
        changed.send(())
        return message
    }

    private func scheduleReply(to message: Message, members: [UserID]) {
        guard !peer.userIDs.contains(message.senderID), let replier = members.first(where: peer.userIDs.contains) else { return }
        let text = peer.replies[repliesSent % peer.replies.count]
        repliesSent += 1
        let delay = peer.delay
        peerTasks.append(Task { [weak self] in
            try? await Task.sleep(for: delay)
            guard !Task.isCancelled else { return }
            await self?.postReply(text, from: replier, in: message.conversationID, members: members)
        })
    }

    private func postReply(_ text: String, from sender: UserID, in conversationID: ConversationID, members: [UserID]) {
        _ = append(Message(id: .random(), conversationID: conversationID, senderID: sender, text: text, sentAt: clock.now()), members: members)
    }
}

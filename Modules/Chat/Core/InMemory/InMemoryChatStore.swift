import Foundation
import Kernel

/// The messages of the memory backend, shared by every caller's `InMemoryChatService`, and the
/// journal of the other features' changes, so that both make one stream. With a
/// `SimulatedPeer` its mock users answer messages after a delay.
public actor InMemoryChatStore: ChatActivityFeed, EventFeed, ChangeJournal {
    private var timelines: [ConversationID: [Message]] = [:]
    /// Messages by conversation and id: an id is the sender's within a conversation.
    private var index: [ConversationID: [MessageID: Message]] = [:]
    /// Every event in the order stored (an event's cursor is its place here, from 1), with who
    /// sees it when it is a change (decided when it was stored); a message is seen by its
    /// conversation's members of the moment.
    private var log: [(event: UserEvent, audience: Set<UserID>?)] = []
    /// Where each message's change events are in `log`: an edit or a deletion rewrites the
    /// message in all of them and in its own event, so that no event keeps an older text.
    private var changeEntries: [ConversationID: [MessageID: [Int]]] = [:]
    /// This store's epoch: a new one per process, so a cursor from another run is refused.
    private let epoch = EventCursor.newEpoch()
    /// Per conversation and reader: how many messages of the timeline the reader has read.
    private var readMarkers: [ConversationID: [UserID: Int]] = [:]
    /// The people who keep their read receipts private.
    private var privateReceipts: Set<UserID> = []
    /// Seeded messages count as read by everyone.
    private let seededCounts: [ConversationID: Int]
    private var repliesSent = 0
    private var peerTasks: [Task<Void, Never>] = []
    let membership: any ConversationMembership
    /// Whom a message mentions, found as it is stored.
    let mentionFinder: MentionFinder
    let conditions: SimulatedConditions
    let clock: any WallClock
    /// The files sends carry (Files, or none).
    let attachments: AttachedFiles
    /// Who is typing where: within this process, as the memory backend is.
    public nonisolated let typing: TypingHub
    private let peer: SimulatedPeer
    private let fanOut = EventFanOut()
    private let changed = Broadcaster<Void>()

    /// Creates the store with seeded messages (in order) that every member has read.
    public init(
        messages: [Message] = [],
        membership: any ConversationMembership,
        names: any MemberNames,
        clock: any WallClock = SystemWallClock(),
        conditions: SimulatedConditions = .none,
        peer: SimulatedPeer = .none,
        attachments: any AttachmentSource = NoAttachments()
    ) {
        for var message in messages {
            message.cursor = EventCursor(epoch: epoch, position: Int64(log.count + 1))
            log.append((.message(message), nil))
            timelines[message.conversationID, default: []].append(message)
            index[message.conversationID, default: [:]][message.id] = message
        }
        seededCounts = timelines.mapValues(\.count)
        self.membership = membership
        mentionFinder = MentionFinder(membership: membership, names: names)
        self.clock = clock
        self.conditions = conditions
        self.peer = peer
        self.attachments = AttachedFiles(attachments)
        typing = TypingHub(channel: LocalTypingChannel(), membership: membership)
    }

    deinit { peerTasks.forEach { $0.cancel() } }

    /// The message `messageID` of `conversationID` as it is now, if there is one: what Files asks
    /// to know whether a file is sent.
    public func message(_ messageID: MessageID, in conversationID: ConversationID) -> Message? { index[conversationID]?[messageID] }

    func page(_ conversationID: ConversationID, before messageID: MessageID?, limit: Int) throws -> MessagePage {
        let timeline = timelines[conversationID] ?? []
        var end = timeline.endIndex
        if let messageID {
            guard let found = timeline.firstIndex(where: { $0.id == messageID }) else { throw ChatRules.noMessage(messageID, in: conversationID) }
            end = found
        }
        let start = max(0, end - max(limit, 0))
        return MessagePage(messages: timeline[start..<end].map(withCurrentReply), hasOlder: start > 0)
    }

    func send(
        id: MessageID, text: String, to conversationID: ConversationID, replyTo: MessageID?, mentions: [UserID], attachments: [Attachment] = [],
        from me: UserID, members: [UserID]
    ) throws -> Message {
        if let existing = index[conversationID]?[id] {
            return try ChatRules.resent(existing, conversationID: conversationID, sender: me, text: text, attachments: attachments)
        }
        var reply: Message.Reply?
        if let replyTo {
            guard let answered = index[conversationID]?[replyTo] else { throw ChatRules.noMessage(replyTo, in: conversationID) }
            reply = Message.Reply(id: replyTo, text: answered.text, deleted: answered.deleted)
        }
        let message = append(
            Message(
                id: id, conversationID: conversationID, senderID: me, text: text, sentAt: clock.now(), replyTo: reply,
                mentions: mentions, attachments: attachments),
            members: members)
        scheduleReply(to: message, members: members)
        return message
    }

    /// Applies `rule` (`ChatRules.edit`, `.delete` or `.react`) to message `messageID` and stores
    /// what it gives as the message's new state, one `kind` event seen by the conversation's
    /// members; returns the message as it is now.
    func change(
        _ messageID: MessageID, in conversationID: ConversationID, as kind: UserEvent.MessageChange, members: [UserID],
        _ rule: (Message) throws -> Message?
    ) throws -> Message {
        guard let current = index[conversationID]?[messageID] else { throw ChatRules.noMessage(messageID, in: conversationID) }
        guard let changed = try rule(current) else { return current }
        index[conversationID]?[messageID] = changed
        if let place = timelines[conversationID]?.lastIndex(where: { $0.id == messageID }) { timelines[conversationID]?[place] = changed }
        if let position = changed.cursor?.position { log[Int(position) - 1].event = .message(changed) }
        for place in changeEntries[conversationID]?[messageID] ?? [] {
            switch log[place].event {
            case .messageChanged(let kind, _, let cursor): log[place].event = .messageChanged(kind, changed, cursor: cursor)
            case .reacted(_, let cursor): log[place].event = .reacted(MessageReactions(of: changed), cursor: cursor)
            case .message, .change: break
            }
        }
        changeEntries[conversationID, default: [:]][messageID, default: []].append(log.count)
        publish(.changed(kind, changed, cursor: nextCursor()), to: members)
        self.changed.send(())
        return changed
    }

    /// Deletes every message `which` names for everyone (`ChatRules.erase`), as `MessageErasure`
    /// does on the databases: tombstones stay, texts and files go; how many it deleted.
    public nonisolated func erase(_ which: ErasedMessages) async throws -> Int {
        let erased = await undeleted(which)
        for message in erased { try await erase(message.id, in: message.conversationID) }
        return erased.count
    }

    /// Deletes message `id` of `conversationID` for everyone, whoever sent it, as `MessageErasure` does.
    public nonisolated func erase(_ id: MessageID, in conversationID: ConversationID) async throws {
        let (now, members) = (clock.now(), try await membership.members(of: conversationID) ?? [])
        _ = try await attachments.discarding { carried in
            try await change(id, in: conversationID, as: .deleted, members: members) { carried(ChatRules.erase($0, at: now), $0) }
        }
    }

    private func undeleted(_ which: ErasedMessages) -> [Message] {
        timelines.values.joined().filter { message in
            switch which {
            case .sentBy(let user): !message.deleted && message.senderID == user
            case .sentBefore(let time): !message.deleted && message.sentAt < time
            }
        }
    }

    /// Moves `reader`'s marker to the end of the conversation; a marker that moves is an event,
    /// seen by the reader and by the `members` who see their receipts (`ChatRules.receiptAudience`).
    func markRead(_ conversationID: ConversationID, by reader: UserID, members: [UserID], apart: Set<UserID>) {
        let count = timelines[conversationID]?.count ?? 0
        guard count > marker(of: reader, in: conversationID) else { return }
        readMarkers[conversationID, default: [:]][reader] = count
        changed.send(())
        publish(
            .change(.readMarkerMoved(in: conversationID, by: reader), cursor: nextCursor()),
            to: ChatRules.receiptAudience(of: reader, members: members, keepingPrivate: privateReceipts, apart: apart))
    }

    /// How far each of `members` but `reader` has read, for those who share their receipts and
    /// are not `apart` from the reader; none when `reader` keeps theirs private.
    func receipts(in conversationID: ConversationID, for reader: UserID, members: [UserID], apart: Set<UserID>) -> [ReadReceipt] {
        let timeline = timelines[conversationID] ?? []
        let all = members.sorted { $0.rawValue < $1.rawValue }.map { member in
            let count = min(marker(of: member, in: conversationID), timeline.count)
            return ReadReceipt(userID: member, readCount: count, lastRead: count > 0 ? timeline[count - 1].id : nil)
        }
        return ChatRules.receiptsShown(all, to: reader, keepingPrivate: privateReceipts, apart: apart)
    }

    /// Keeps `user`'s receipts private, or shares them.
    func setReceiptsPrivate(_ isPrivate: Bool, for user: UserID) {
        if isPrivate { privateReceipts.insert(user) } else { privateReceipts.remove(user) }
    }

    public func record(_ change: StoreChange, audience: [UserID]) async {
        publish(.change(change, cursor: nextCursor()), to: audience)
        // A conversation's members changed, or the list's rows did.
        changed.send(())
    }

    public func subscribe(conversation conversationID: ConversationID?, member: UserID, reader: @escaping EventFanOut.Reader) -> EventSubscription {
        fanOut.subscribe(conversation: conversationID, member: member, reader: reader)
    }

    public func activity(of conversationIDs: [ConversationID], for reader: UserID) async throws -> [ConversationID: ChatActivity] {
        var result: [ConversationID: ChatActivity] = [:]
        for id in conversationIDs {
            guard let timeline = timelines[id], let last = timeline.last else { continue }
            let unread = timeline[marker(of: reader, in: id)...].filter { $0.senderID != reader }
            result[id] = ChatActivity(
                lastMessage: last, unreadCount: unread.count,
                unreadMentions: unread.count { !$0.deleted && $0.mentions.contains(reader) })
        }
        return result
    }

    public func activityChanges() async throws -> AsyncStream<Void> { changed.subscribe() }

    private func marker(of reader: UserID, in conversationID: ConversationID) -> Int {
        readMarkers[conversationID]?[reader] ?? seededCounts[conversationID] ?? 0
    }

    /// Messages after `cursor` in `conversationID`, or in any conversation `member` belongs to.
    func messages(after cursor: EventCursor, in conversationID: ConversationID?, for member: UserID, limit: Int) async throws -> [Message] {
        try check(cursor)
        var found: [Message] = []
        var members: [ConversationID: Bool] = [:]
        for case (.message(let message), _) in log.dropFirst(Int(clamping: cursor.position)) where found.count < limit {
            guard conversationID.map({ $0 == message.conversationID }) ?? true else { continue }
            if members[message.conversationID] == nil {
                members[message.conversationID] = (try? await membership.requireMember(member, of: message.conversationID)) != nil
            }
            if members[message.conversationID] == true { found.append(withCurrentReply(message)) }
        }
        return found
    }

    /// Every event after `cursor` that `member` may see.
    func events(after cursor: EventCursor, for member: UserID, limit: Int) async throws -> [UserEvent] {
        try check(cursor)
        var found: [UserEvent] = []
        for entry in log.dropFirst(Int(clamping: cursor.position)) where found.count < limit {
            guard try await sees(member, entry) else { continue }
            switch entry.event {
            case .message(let message): found.append(.message(withCurrentReply(message)))
            case .messageChanged(let kind, let message, let cursor): found.append(.messageChanged(kind, withCurrentReply(message), cursor: cursor))
            case .reacted, .change: found.append(entry.event)
            }
        }
        return found
    }

    /// The cursor of the newest event `member` may see.
    func newestCursor(for member: UserID) async throws -> EventCursor? {
        for entry in log.reversed() where try await sees(member, entry) { return entry.event.cursor }
        return nil
    }

    /// Whether `member` sees a logged event: a change if it was stored for them, a message if
    /// they are a member of its conversation now.
    private func sees(_ member: UserID, _ entry: (event: UserEvent, audience: Set<UserID>?)) async throws -> Bool {
        if let audience = entry.audience { return audience.contains(member) }
        guard let conversationID = entry.event.messageConversationID else { return false }
        return try await membership.members(of: conversationID)?.contains(member) == true
    }

    /// `message` quoting the message it answers as that one is now (edited, or deleted since).
    private func withCurrentReply(_ message: Message) -> Message {
        guard let reply = message.replyTo, let answered = index[message.conversationID]?[reply.id] else { return message }
        return message.replying(to: Message.Reply(id: reply.id, text: answered.text, deleted: answered.deleted))
    }

    private func check(_ cursor: EventCursor) throws {
        guard cursor.epoch == epoch, cursor.position <= Int64(log.count) else { throw ChatRules.foreignCursor(cursor) }
    }

    private func nextCursor() -> EventCursor { EventCursor(epoch: epoch, position: Int64(log.count + 1)) }

    /// Appends `event` to the log and hands it to its live readers.
    private func publish(_ event: UserEvent, to audience: [UserID]) {
        log.append((event, event.messageConversationID == nil ? Set(audience) : nil))
        fanOut.publish(event, to: audience)
    }

    /// Stores a message; sending one marks the conversation read for its sender.
    private func append(_ message: Message, members: [UserID]) -> Message {
        var message = message
        message.cursor = nextCursor()
        timelines[message.conversationID, default: []].append(message)
        index[message.conversationID, default: [:]][message.id] = message
        readMarkers[message.conversationID, default: [:]][message.senderID] = timelines[message.conversationID]?.count
        publish(.message(message), to: members)
        changed.send(())
        return message
    }

    private func scheduleReply(to message: Message, members: [UserID]) {
        guard !peer.userIDs.contains(message.senderID), let replier = members.first(where: peer.userIDs.contains) else { return }
        let text = peer.replies[repliesSent % peer.replies.count]
        repliesSent += 1
        let delay = peer.delay
        peerTasks.append(
            Task { [weak self] in
                try? await Task.sleep(for: delay)
                guard !Task.isCancelled else { return }
                await self?.postReply(text, from: replier, in: message.conversationID, members: members)
            })
    }

    private func postReply(_ text: String, from sender: UserID, in conversationID: ConversationID, members: [UserID]) {
        _ = append(Message(id: .random(), conversationID: conversationID, senderID: sender, text: text, sentAt: clock.now()), members: members)
    }
}
